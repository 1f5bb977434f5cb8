import type { InstallPlan } from './installPlan';

/**
 * A plan's entry with its `${input:<id>}` replaced: by the value given for the id, or, for an
 * id given as `undefined` (an optional value left out), by nothing at all: an environment
 * variable or header that is only that value is left out, so is an argument (with the flag
 * before it, and docker's `-e NAME` for a variable left out), and elsewhere the placeholder
 * becomes "". Ids not in `values` stay as they are (asked at launch).
 */
export function fillEntry(plan: InstallPlan, values: ReadonlyMap<string, string | undefined>): Record<string, unknown> {
  const omitted = (word: unknown) => typeof word === 'string' && /^\$\{input:[^}]+\}$/.test(word) && values.has(word.slice(8, -1)) && values.get(word.slice(8, -1)) === undefined;
  const fill = (word: string) => word.replace(/\$\{input:([^}]+)\}/g, (whole, id: string) => (values.has(id) ? (values.get(id) ?? '') : whole));
  const entry: Record<string, unknown> = { ...plan.entry };
  const left: string[] = [];
  for (const key of ['env', 'headers'] as const) {
    const record = plan.entry[key] as Readonly<Record<string, string>> | undefined;
    if (!record) continue;
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(record)) {
      if (omitted(value)) left.push(name);
      else kept[name] = fill(value);
    }
    if (Object.keys(kept).length > 0) entry[key] = kept;
    else delete entry[key];
  }
  const args = plan.entry.args as readonly string[] | undefined;
  if (args) {
    const kept: string[] = [];
    for (const word of args) {
      if (omitted(word)) {
        if (kept.length > 1 && kept[kept.length - 1].startsWith('-')) kept.pop();
        continue;
      }
      kept.push(fill(word));
    }
    // docker is handed each variable by name: one that was left out is not handed on.
    entry.args = plan.runsVia === 'oci' ? kept.filter((word, i) => !(word === '-e' && left.includes(kept[i + 1])) && !(kept[i - 1] === '-e' && left.includes(word))) : kept;
  }
  // A bundle's command may carry a value too (its manifest's `${user_config.x}`).
  if (typeof plan.entry.command === 'string') entry.command = fill(plan.entry.command);
  if (typeof plan.entry.url === 'string') entry.url = fill(plan.entry.url);
  return entry;
}
