import { summarizeArguments } from './schemaSummary';

/** What kind of prompt a field gets: an input box (text, numbers) or a pick (enum, boolean). */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

/** One top-level argument that the field-by-field flow can ask for. */
export interface ArgumentField {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description?: string;
  /** True when the schema declares a `default` (which may itself be `null`). */
  readonly hasDefault: boolean;
  readonly defaultValue?: unknown;
  /** The values a pick offers: the `enum` (or `const`), or `[true, false]` for a boolean. */
  readonly options: readonly unknown[];
  /** Type and limits as a person reads them: `integer, 1-100, default 5`. */
  readonly details: string;
}

/**
 * How a tool's arguments are asked: not at all (no properties), field by field, or as JSON in
 * an editor when the schema holds something the fields cannot express (`reason` says what).
 */
export type ArgumentPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'fields'; readonly fields: readonly ArgumentField[] }
  | { readonly kind: 'json'; readonly reason: string };

type Schema = Readonly<Record<string, unknown>>;

const COMBINATORS = ['$ref', 'oneOf', 'anyOf', 'allOf', 'not', 'if', '$dynamicRef'] as const;
const OBJECT_RULES = ['patternProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'propertyNames', 'unevaluatedProperties', 'minProperties', 'maxProperties'] as const;

/**
 * Reads a tool's input schema (which comes from a server, so anything may be malformed) and
 * decides how to ask for its arguments. Fields come required first, in schema order.
 */
export function planArguments(inputSchema: unknown): ArgumentPlan {
  const schema = asSchema(inputSchema) ?? {};
  const properties = asSchema(schema.properties) ?? {};
  const names = Object.keys(properties);
  const required = requiredNames(schema);
  const rootReason = rootComplexity(schema, names.length);
  if (names.length === 0 && !rootReason) return { kind: 'none' };
  if (rootReason) return { kind: 'json', reason: rootReason };
  const fields: ArgumentField[] = [];
  for (const name of names) {
    const field = fieldOf(name, asSchema(properties[name]), required.has(name));
    if (typeof field === 'string') return { kind: 'json', reason: `"${name}" ${field}` };
    fields.push(field);
  }
  for (const r of required) if (!names.includes(r)) return { kind: 'json', reason: `"${r}" is required but not described` };
  fields.sort((a, b) => Number(b.required) - Number(a.required));
  return { kind: 'fields', fields };
}

/** The names the schema lists under `required` (strings only). */
export function requiredNames(schema: Schema | undefined): Set<string> {
  const list = schema?.required;
  return new Set(Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : []);
}

export function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

function rootComplexity(schema: Schema, propertyCount: number): string | undefined {
  for (const key of COMBINATORS) if (key in schema) return `the schema uses ${key}`;
  for (const key of OBJECT_RULES) if (key in schema) return `the schema uses ${key}`;
  if (asSchema(schema.additionalProperties)) return 'the tool takes arguments with any name';
  if (propertyCount === 0 && requiredNames(schema).size > 0) return 'the schema requires arguments it does not describe';
  return undefined;
}

/** The field for one property, or why the fields cannot ask for it. */
function fieldOf(name: string, prop: Schema | undefined, required: boolean): ArgumentField | string {
  if (!prop) return 'has no schema';
  for (const key of COMBINATORS) if (key in prop) return `uses ${key}`;
  const summary = summarizeArguments({ properties: { [name]: prop }, required: required ? [name] : [] }).arguments[0];
  const base = {
    name,
    required,
    description: typeof prop.description === 'string' ? prop.description : undefined,
    hasDefault: 'default' in prop,
    defaultValue: prop.default,
    details: [summary.type, ...summary.notes].join(', ').replace(/\b1 (character|item)s\b/g, '1 $1'),
  };
  const options = Array.isArray(prop.enum) ? prop.enum : 'const' in prop ? [prop.const] : undefined;
  if (options) {
    if (options.length === 0) return 'has an empty enum';
    if (!options.every(isScalar)) return 'offers values that are objects or lists';
    return { ...base, kind: 'enum', options };
  }
  const type = singleType(prop.type);
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
      return { ...base, kind: type, options: [] };
    case 'boolean':
      return { ...base, kind: 'boolean', options: [true, false] };
    case 'object':
      return 'is an object';
    case 'array':
      return 'is a list';
    default:
      return type === undefined ? 'may hold any kind of value' : `has type ${type}`;
  }
}

/** `"string"`, or `["string", "null"]` read as `"string"`; several real types are not one. */
function singleType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (!Array.isArray(type)) return undefined;
  const real = type.filter((t) => t !== 'null');
  return real.length === 1 && typeof real[0] === 'string' ? real[0] : real.length === 0 ? 'null' : real.join(' or ');
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
