/**
 * `x-mcp-header` (2026-07-28, Streamable HTTP): a tool may ask for some of its arguments to be
 * mirrored into `Mcp-Param-{Name}` request headers. A tool whose declarations break the spec's
 * rules is invalid and left out of the list over HTTP (the SDK did this while it walked the
 * pages; we walk them ourselves, toolListing.ts). The values of valid declarations go into the
 * headers of each call.
 */

const KEY = 'x-mcp-header';

/** RFC 9110 `token`: what a header name may be made of (no spaces, controls or delimiters). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The property types the spec allows a header on (`number` is not among them). */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose subschemas are not reached by a chain of `properties`: a declaration there is invalid. */
const UNREACHABLE = ['items', 'prefixItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'patternProperties', 'dependentSchemas', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$defs', 'definitions'];

/** Of these, the ones whose value maps names to subschemas. */
const NAMED_SUBSCHEMAS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** A header a tool declared: the argument's path and the header's name (without the prefix). */
export interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

/** The tool's declared headers, or the first rule it breaks (as a sentence fragment). */
export type HeaderScan = { readonly headers: readonly ParamHeader[] } | { readonly fault: string };

/** A place in the schema: the property (or `<keyword>`) and the place above it. Linked, so a deep walk stays linear. */
interface Place {
  readonly key: string;
  readonly up?: Place;
}

const pathOf = (place: Place | undefined): string[] => {
  const keys: string[] = [];
  for (let p = place; p; p = p.up) keys.push(p.key);
  return keys.reverse();
};

/** Walks an `inputSchema` for `x-mcp-header` declarations and checks each against the spec's rules. Iterative and linear: a schema may be deep. */
export function scanParamHeaders(inputSchema: unknown): HeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const stack: { node: unknown; place?: Place; reachable: boolean }[] = [{ node: inputSchema, reachable: true }];
  while (stack.length > 0) {
    const { node, place, reachable } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const schema = node as Record<string, unknown>;
    if (KEY in schema) {
      const path = pathOf(place);
      const where = path.length === 0 ? 'the schema itself' : `"${path.join('.')}"`;
      if (!reachable || path.length === 0) return { fault: `${KEY} on ${where} is not reached through "properties" alone` };
      const name = schema[KEY];
      if (typeof name !== 'string' || !TOKEN.test(name)) return { fault: `${KEY} on ${where} is not a valid header name` };
      if (typeof schema.type !== 'string' || !HEADER_TYPES.has(schema.type)) return { fault: `${KEY} on ${where} is on a property that is not a string, integer or boolean` };
      const twin = seen.get(name.toLowerCase());
      if (twin !== undefined) return { fault: `${KEY} "${name}" is declared twice (also as "${twin}")` };
      seen.set(name.toLowerCase(), name);
      headers.push({ path, name });
    }
    if (typeof schema.properties === 'object' && schema.properties !== null) {
      for (const [key, child] of Object.entries(schema.properties)) stack.push({ node: child, place: { key, up: place }, reachable });
    }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) && typeof sub === 'object' && sub !== null ? Object.values(sub) : [sub];
      for (const branch of branches) stack.push({ node: branch, place: { key: `<${keyword}>`, up: place }, reachable: false });
    }
  }
  return { headers };
}

/** The `Mcp-Param-*` headers for one call: a missing or null value, or one of the wrong kind, sends no header. */
export function paramHeaderValues(headers: readonly ParamHeader[], args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of headers) {
    const text = headerText(valueAt(args, header.path));
    if (text !== undefined) out[`Mcp-Param-${header.name}`] = encoded(text);
  }
  return out;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** A value that is not plain printable ASCII (or could be mistaken for an encoded one) travels as `=?base64?…?=`. */
function encoded(text: string): string {
  const plain = text !== '' && text === text.trim() && /^[\t\x20-\x7e]*$/.test(text) && !(text.startsWith('=?base64?') && text.endsWith('?='));
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
