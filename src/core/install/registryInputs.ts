import type { InstallInput } from './installPlan';
import { installInputId } from './inputIds';
import { checkWord } from './registryNames';
import { flag, isObject, text, type Json } from './registryServerJson';
import { SHOWN_CHARS, shown } from './registryText';

/** At most this many variables, choices and values an entry may ask for. */
const MAX_INPUTS = 64;
const MAX_CHOICES = 64;
/** Fixed values and defaults longer than this are not a setting anyone types. */
const MAX_VALUE_CHARS = 4096;

/** A problem with an entry's inputs: the whole option is refused with its message. */
export class InputProblem extends Error {}

/**
 * The values one install option asks for, collected while its entry is built: each declared
 * input (an environment variable, a header, an argument, a `{variable}`) becomes `${input:<id>}`
 * in the entry and an InstallInput here, so nothing the user types (a secret least of all) is in
 * the entry itself. Ids are per installed server (installInputId).
 */
export class InputCollector {
  readonly inputs: InstallInput[] = [];

  constructor(private readonly server: string) {}

  /**
   * What goes into the entry for an Input (schema: Input / InputWithVariables) named `label`:
   * its fixed `value` with each `{variable}` asked for, or, without a value, the whole input
   * asked for. `secret` is inherited by its variables (a header `Bearer {token}` that is secret).
   */
  valueOf(input: Json, label: string, inherited = false): string {
    const secret = inherited || flag(input, 'isSecret');
    const fixed = input.value;
    if (fixed !== undefined && typeof fixed !== 'string') throw new InputProblem(`the value of "${label}" is not text`);
    if (fixed === undefined) return this.ask(input, label, secret);
    checkFixed(fixed, label);
    const variables = input.variables === undefined ? {} : input.variables;
    if (!isObject(variables)) throw new InputProblem(`the variables of "${label}" are not an object`);
    return this.substitute(fixed, variables, secret);
  }

  /** `{name}` in a template replaced by its asked value; names not among `variables` stay as written (the schema says so). */
  substitute(template: string, variables: Json, secret: boolean): string {
    return template.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
      const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (variable === undefined) return whole;
      if (!isObject(variable)) throw new InputProblem(`the variable "${name}" is not an object`);
      const problem = checkWord(name, 'variable');
      if (problem) throw new InputProblem(problem);
      // A variable's own fixed value is a part of the template, not a question.
      const value = variable.value;
      if (typeof value === 'string') {
        checkFixed(value, name);
        return value;
      }
      return this.ask(variable, name, secret || flag(variable, 'isSecret'));
    });
  }

  /** Asks for `input` once per id (two headers that use one `{token}` share its value). */
  private ask(input: Json, label: string, secret: boolean): string {
    const id = installInputId(this.server, label);
    if (!this.inputs.some((i) => i.id === id)) {
      if (this.inputs.length >= MAX_INPUTS) throw new InputProblem(`it asks for more than ${MAX_INPUTS} values`);
      const description = text(input, 'description');
      const fallback = text(input, 'default');
      if (fallback !== undefined) checkFixed(fallback, label);
      const choices = input.choices;
      if (choices !== undefined && (!Array.isArray(choices) || choices.length > MAX_CHOICES || !choices.every((c) => typeof c === 'string'))) throw new InputProblem(`the choices of "${label}" are not a short list of text`);
      for (const c of (choices as string[] | undefined) ?? []) checkFixed(c, label);
      this.inputs.push({
        id,
        label: shown(label, SHOWN_CHARS.label),
        ...(description ? { description: shown(description, SHOWN_CHARS.description) } : {}),
        secret,
        required: flag(input, 'isRequired'),
        // A secret's default would be written where secrets never are: it is not offered.
        ...(fallback !== undefined && !secret ? { default: fallback } : {}),
        ...(choices ? { choices: [...(choices as string[])] } : {}),
      });
    }
    return `\${input:${id}}`;
  }
}

/**
 * A value the registry fixes (or offers as a default or a choice) goes into the entry as written:
 * `${...}` in it would be read at launch as one of the user's variables (`${env:AWS_SECRET_ACCESS_KEY}`,
 * `${input:<another server's id>}`), which would hand the stranger the user's values.
 */
function checkFixed(value: string, label: string): void {
  if (value.includes('${')) throw new InputProblem(`the value of "${label}" contains "\${", which would read your own variables at launch`);
  if (value.length > MAX_VALUE_CHARS) throw new InputProblem(`the value of "${label}" is ${value.length} characters long`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(value)) throw new InputProblem(`the value of "${label}" contains control or direction characters`);
}
