import type { ArgumentField } from './argumentFields';
import { problemsOfField, type SchemaProblem } from './schemaProblems';

/** Checks a whole arguments object against the tool's input schema. */
export type ValidateArguments = (args: Record<string, unknown>) => readonly SchemaProblem[];

/** What a field's text means: a value, "leave it unset", or why it is not acceptable. */
export type FieldEntry =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'unset' }
  | { readonly kind: 'invalid'; readonly message: string };

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Turns what the user typed into a field's value: numbers are parsed (`1e3`, `-2.5`), an empty
 * optional field is left unset (the server's default applies), an empty required string is `""`.
 */
export function parseFieldText(field: ArgumentField, text: string): FieldEntry {
  switch (field.kind) {
    case 'string':
      if (text === '' && !field.required) return { kind: 'unset' };
      return { kind: 'value', value: text };
    case 'number':
    case 'integer': {
      const trimmed = text.trim();
      if (trimmed === '') return field.required ? { kind: 'invalid', message: `${field.name} is required: enter a ${field.kind === 'integer' ? 'whole number' : 'number'}` } : { kind: 'unset' };
      if (!NUMBER.test(trimmed)) return { kind: 'invalid', message: `${field.name} must be a number; "${trimmed}" is not one` };
      return { kind: 'value', value: Number(trimmed) };
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return { kind: 'value', value: text === 'true' };
      return text === '' && !field.required ? { kind: 'unset' } : { kind: 'invalid', message: `${field.name} must be true or false` };
    case 'enum': {
      const index = field.options.findIndex((o) => optionLabel(o) === text);
      if (index >= 0) return { kind: 'value', value: field.options[index] };
      return text === '' && !field.required ? { kind: 'unset' } : { kind: 'invalid', message: `${field.name} must be one of ${field.options.map(optionLabel).join(', ')}` };
    }
  }
}

/** The text a field's box shows for a value (the inverse of `parseFieldText`); `""` for unset. */
export function fieldText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** How an enum or boolean option is labelled in a pick: strings as they are, the rest as JSON. */
export function optionLabel(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Checks one field as the user types: parses the text, then validates the arguments with this
 * value against the whole schema and keeps only the problems about this field (so formats,
 * lengths, ranges and patterns read exactly as they will when the call is validated).
 */
export function checkField(field: ArgumentField, text: string, values: Readonly<Record<string, unknown>>, validate: ValidateArguments): FieldEntry {
  const entry = parseFieldText(field, text);
  if (entry.kind === 'invalid') return entry;
  const candidate = { ...values };
  if (entry.kind === 'value') candidate[field.name] = entry.value;
  else delete candidate[field.name];
  const [problem] = problemsOfField(validate(candidate), field.name);
  if (!problem) return entry;
  // An empty required box reads better as "required" than as "must have at least 1 character".
  return { kind: 'invalid', message: entry.kind === 'value' && entry.value === '' ? `${field.name} is required` : problem };
}

/**
 * The values a flow starts from: the last arguments used with this tool where they name a
 * field, else the schema's default; fields with neither start unset (absent).
 */
export function initialValues(fields: readonly ArgumentField[], previous: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (previous && Object.prototype.hasOwnProperty.call(previous, field.name)) values[field.name] = previous[field.name];
    else if (field.hasDefault) values[field.name] = field.defaultValue;
  }
  return values;
}
