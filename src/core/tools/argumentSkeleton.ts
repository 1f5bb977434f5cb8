import { asSchema, requiredNames } from './argumentFields';

type Schema = Readonly<Record<string, unknown>>;

/** How deep the skeleton follows nested objects and `$ref`s (schemas may be recursive). */
const MAX_DEPTH = 8;

/**
 * A starting point for editing a tool's arguments as JSON: every required property with its
 * default or a typed empty value (`""`, `0`, `false`, `[]`, `{...}` filled the same way), and
 * every optional property that has a default. Local `$ref`s (`#/$defs/x`, `#/definitions/x`)
 * are followed, `allOf` parts merged, and the first choice of a `oneOf`/`anyOf` taken.
 */
export function argumentSkeleton(inputSchema: unknown): Record<string, unknown> {
  const root = asSchema(inputSchema) ?? {};
  return objectSkeleton(root, root, 0);
}

/**
 * The editor's text: the skeleton with `values` (the last arguments, or what the field flow
 * holds so far) laid over it, pretty-printed. Keys the schema forbids are dropped from `values`.
 */
export function argumentsText(inputSchema: unknown, values?: Readonly<Record<string, unknown>>): string {
  const schema = asSchema(inputSchema) ?? {};
  const known = asSchema(schema.properties) ?? {};
  const closed = schema.additionalProperties === false;
  const merged: Record<string, unknown> = argumentSkeleton(schema);
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined || (closed && !(key in known))) continue;
    merged[key] = value;
  }
  return `${JSON.stringify(merged, null, 2)}\n`;
}

function objectSkeleton(schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = asSchema(schema.properties) ?? {};
  const required = requiredNames(schema);
  for (const [name, value] of Object.entries(properties)) {
    const prop = resolve(asSchema(value), root, depth);
    if (prop && 'default' in prop) out[name] = prop.default;
    else if (required.has(name)) out[name] = valueSkeleton(prop, root, depth + 1);
  }
  for (const part of schemaList(schema.allOf)) {
    fillMissing(out, valueSkeleton(part, root, depth + 1));
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const [first] = schemaList(schema[key]);
    if (first) fillMissing(out, valueSkeleton(first, root, depth + 1));
  }
  return out;
}

/** A typed empty value for one schema: its default, const or first enum value when it has one. */
function valueSkeleton(input: Schema | undefined, root: Schema, depth: number): unknown {
  const schema = resolve(input, root, depth);
  if (!schema || depth > MAX_DEPTH) return null;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = firstType(schema);
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return lowestNumber(schema, type === 'integer');
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object':
      return objectSkeleton(schema, root, depth);
  }
  const [first] = [...schemaList(schema.oneOf), ...schemaList(schema.anyOf)];
  if (first) return valueSkeleton(first, root, depth + 1);
  if (schemaList(schema.allOf).length > 0) return objectSkeleton(schema, root, depth);
  return null;
}

/** `0`, unless the schema's minimum says the value must be larger. */
function lowestNumber(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  let value = 0;
  if (min !== undefined && min > value) value = min;
  if (exclusive !== undefined && exclusive >= value) value = integer ? Math.floor(exclusive) + 1 : exclusive + 1;
  return integer ? Math.ceil(value) : value;
}

function firstType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') ?? type[0];
  return asSchema(schema.properties) ? 'object' : undefined;
}

/** Follows local `$ref`s (JSON pointers into the root schema); anything else stays as it is. */
function resolve(schema: Schema | undefined, root: Schema, depth: number): Schema | undefined {
  let current = schema;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < MAX_DEPTH - depth; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#')) return current;
    let target: unknown = root;
    for (const segment of ref.slice(1).split('/').filter(Boolean)) {
      target = asSchema(target)?.[decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    current = asSchema(target);
  }
  return current;
}

/** Copies the keys of `from` (when it is an object) that `into` does not have yet. */
function fillMissing(into: Record<string, unknown>, from: unknown): void {
  for (const [key, value] of Object.entries(asSchema(from) ?? {})) if (!(key in into)) into[key] = value;
}

function schemaList(value: unknown): Schema[] {
  return Array.isArray(value) ? value.map(asSchema).filter((s): s is Schema => s !== undefined) : [];
}
