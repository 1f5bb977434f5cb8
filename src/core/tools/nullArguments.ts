/**
 * Arguments set to `null` that the tool does not require and whose schema does not take `null`:
 * a caller (a model, most often) means "not given" by them, and a server would read them so. They
 * are left out before the arguments are checked, and the call's log names them; a required one,
 * or one whose schema takes `null`, stays and is checked as sent.
 */
export function withoutNullOptionals(schema: unknown, args: Record<string, unknown>): { args: Record<string, unknown>; dropped: string[] } {
  if (!isObject(schema) || !isObject(schema.properties)) return { args, dropped: [] };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const properties = schema.properties;
  const dropped = Object.keys(args).filter((key) => args[key] === null && !required.has(key) && Object.hasOwn(properties, key) && !takesNull(properties[key]));
  if (dropped.length === 0) return { args, dropped };
  return { args: Object.fromEntries(Object.entries(args).filter(([key]) => !dropped.includes(key))), dropped };
}

/** Whether a property's schema accepts `null` (or may: one we cannot read is given the benefit). */
function takesNull(schema: unknown): boolean {
  if (!isObject(schema)) return true;
  if (schema.nullable === true || schema.const === null) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.some(takesNull);
  }
  const type = schema.type;
  if (type === undefined) return true;
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
