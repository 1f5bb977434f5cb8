/** One argument of a tool, as a person reads it: name, type, whether it is required, and limits. */
export interface ArgumentSummary {
  readonly name: string;
  /** `string`, `integer`, `string[]`, `"a" | "b"`, `any`... */
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  /** Defaults, ranges, lengths, formats and patterns, as short phrases ("default 2000", "1-100"). */
  readonly notes: readonly string[];
}

/** How many arguments a summary lists before it says "and N more". */
export const MAX_ARGUMENTS_SHOWN = 20;
const MAX_ENUM_SHOWN = 6;
const MAX_VALUE_CHARS = 40;

type Schema = Readonly<Record<string, unknown>>;

/**
 * The top-level properties of a tool's input schema, required ones first, each with its type and
 * limits. The schema comes from a server: anything malformed is shown as `any`, never thrown.
 */
export function summarizeArguments(inputSchema: unknown): { arguments: ArgumentSummary[]; more: number } {
  const schema = asSchema(inputSchema);
  const properties = asSchema(schema?.properties);
  if (!properties) return { arguments: [], more: 0 };
  const required = new Set(Array.isArray(schema?.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const all = Object.entries(properties).map(([name, value]): ArgumentSummary => {
    const prop = asSchema(value) ?? {};
    const description = typeof prop.description === 'string' ? prop.description : undefined;
    return { name, type: typeOf(prop), required: required.has(name), description, notes: notesOf(prop) };
  });
  all.sort((a, b) => Number(b.required) - Number(a.required));
  return { arguments: all.slice(0, MAX_ARGUMENTS_SHOWN), more: Math.max(0, all.length - MAX_ARGUMENTS_SHOWN) };
}

/** One line per argument: `name* (integer, 1-100, default 5): what it is`. */
export function formatArgument(a: ArgumentSummary): string {
  const details = [a.type, ...a.notes].join(', ');
  return `${a.name}${a.required ? '*' : ''} (${details})${a.description ? `: ${a.description}` : ''}`;
}

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

function typeOf(prop: Schema): string {
  if (Array.isArray(prop.enum)) {
    const shown = prop.enum.slice(0, MAX_ENUM_SHOWN).map(short).join(' | ');
    return prop.enum.length > MAX_ENUM_SHOWN ? `${shown} | …` : shown || 'any';
  }
  if ('const' in prop) return short(prop.const);
  const type = prop.type;
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string').join(' | ') || 'any';
  if (type === 'array') {
    const items = asSchema(prop.items);
    return `${items ? typeOf(items) : 'any'}[]`;
  }
  if (typeof type === 'string') return type;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = prop[key];
    if (Array.isArray(options)) {
      const types = [...new Set(options.map((o) => typeOf(asSchema(o) ?? {})))];
      return types.join(' | ') || 'any';
    }
  }
  return 'any';
}

function notesOf(prop: Schema): string[] {
  const notes: string[] = [];
  const num = (key: string) => (typeof prop[key] === 'number' ? (prop[key] as number) : undefined);
  // The unit agrees with the number it follows: "at least 1 character", "1-2 characters", "exactly 3 items".
  const range = (lo: number | undefined, hi: number | undefined, unit?: readonly [one: string, many: string]) => {
    const of = (n: number) => (unit ? ` ${n === 1 ? unit[0] : unit[1]}` : '');
    if (lo !== undefined && hi !== undefined) notes.push(lo === hi ? `exactly ${lo}${of(lo)}` : `${lo}-${hi}${of(hi)}`);
    else if (lo !== undefined) notes.push(`at least ${lo}${of(lo)}`);
    else if (hi !== undefined) notes.push(`at most ${hi}${of(hi)}`);
  };
  range(num('minimum') ?? num('exclusiveMinimum'), num('maximum') ?? num('exclusiveMaximum'));
  range(num('minLength'), num('maxLength'), ['character', 'characters']);
  range(num('minItems'), num('maxItems'), ['item', 'items']);
  if (typeof prop.format === 'string') notes.push(`format ${prop.format}`);
  if (typeof prop.pattern === 'string') notes.push(`pattern ${short(prop.pattern)}`);
  if ('default' in prop) notes.push(`default ${short(prop.default)}`);
  return notes;
}

/** A value as JSON, cut to a readable length. */
function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
