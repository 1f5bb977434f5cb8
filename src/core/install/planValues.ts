import { installInputId } from './inputIds';
import type { InstallInput, InstallPlan } from './installPlan';

// What installing does to a plan's entry between showing it and writing it: the name the user
// chose, and the values they gave. Pure: the surfaces (VS Code, the CLI) ask, this fills.

/** Every `${...}` in the strings of `value` (an entry, at any depth). */
function variablesIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(/\$\{([^}]*)\}/g)) out.push(m[1]);
  else if (Array.isArray(value)) for (const v of value) variablesIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) variablesIn(v, out);
  return out;
}

/**
 * The problem with a plan's entry before anything is shown, or undefined. A stranger's entry may
 * use only the `${input:<id>}` of its own inputs: `${env:GITHUB_TOKEN}` would hand the server (or
 * a remote's headers) a value of the user's environment, `${userHome}` or `${workspaceFolder}` the
 * user's paths, and an undeclared `${input:...}` a value the user gave another server.
 */
export function checkPlanEntry(plan: InstallPlan): string | undefined {
  const ids = new Set(plan.inputs.map((i) => i.id));
  const foreign = [...new Set(variablesIn(plan.entry).filter((v) => !(v.startsWith('input:') && ids.has(v.slice('input:'.length)))))];
  if (typeof plan.entry !== 'object' || plan.entry === null || Array.isArray(plan.entry)) return 'Its entry is not an object; it was not installed.';
  if (foreign.length > 0) return `Its entry uses ${foreign.map((v) => `\${${v}}`).join(', ')}, which would give it values of yours it did not ask for; it was not installed.`;
  return undefined;
}

/**
 * The plan under the name the user chose: each input id is the server's name and the variable's
 * (installInputId), so a renamed server's ids follow its new name and its values stay its own.
 */
export function renamePlan(plan: InstallPlan, name: string): InstallPlan {
  if (name === plan.name) return plan;
  const prefix = installInputId(plan.name, 'x').slice(0, -1);
  const renamed = new Map(plan.inputs.map((i) => [i.id, i.id.startsWith(prefix) ? installInputId(name, i.id.slice(prefix.length)) : i.id]));
  const entry = mapStrings(plan.entry, (s) => s.replace(/\$\{input:([^}]*)\}/g, (whole, id: string) => (renamed.has(id) ? `\${input:${renamed.get(id)!}}` : whole))) as InstallPlan['entry'];
  return { ...plan, name, entry, inputs: plan.inputs.map((i) => ({ ...i, id: renamed.get(i.id)! })) };
}

/**
 * The entry with the values of the inputs that are not secret written in (one pass: a value is
 * never read for variables of its own); a secret's `${input:<id>}` stays, for the launch to
 * read from secret storage.
 */
export function fillEntry(plan: InstallPlan, values: ReadonlyMap<string, string>): Record<string, unknown> {
  const plain = new Map(plan.inputs.filter((i) => !i.secret && values.has(i.id)).map((i) => [i.id, values.get(i.id)!]));
  return mapStrings(plan.entry, (s) => s.replace(/\$\{input:([^}]*)\}/g, (whole, id: string) => plain.get(id) ?? whole)) as Record<string, unknown>;
}

/** The default a box may be filled with: none that names a variable (a source's default is a claim too). */
export function safeDefault(input: InstallInput): string | undefined {
  return input.default !== undefined && !input.default.includes('${') ? input.default : undefined;
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}
