/**
 * What the registry sends, and how it is read: nothing is trusted, every field is looked at as
 * `unknown` and taken only when it has the shape the schema gives it.
 *
 * The read API (v0.1, frozen): `GET {base}/v0.1/servers?search=&cursor=&limit=&version=latest`
 * answers `{ servers: [{ server: <server.json>, _meta: {...} }], metadata: { nextCursor?, count } }`.
 * `nextCursor` is opaque; absent, null or "" on the last page.
 *
 * server.json (schemas 2025-09-29 to 2025-12-11, camelCase):
 * - `name` reverse-DNS with one slash, `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, 3..200 characters;
 *   `description` 1..100; `title` (optional, up to 100); `version` (the server's, up to 255);
 *   `repository { url, source, id?, subfolder? }`, `websiteUrl`, `icons`, `_meta`.
 * - `packages[]`: `registryType` (npm, pypi, oci, nuget, mcpb; others may come), `identifier` (a
 *   package name; for oci the whole image reference with its tag, `ghcr.io/o/r:v1.2.3`; for mcpb a
 *   download URL), `version` (exact: never `latest` or a range; optional for oci and mcpb since
 *   2025-10-11), `registryBaseUrl`, `fileSha256` (required for mcpb), `runtimeHint` (npx, uvx,
 *   docker, dnx), `transport` (`{type:'stdio'}`, or `streamable-http`/`sse` with a `url` template
 *   and `headers`), `runtimeArguments[]` and `packageArguments[]` (Argument), `environmentVariables[]`
 *   (KeyValueInput).
 * - `remotes[]`: `{ type: 'streamable-http' | 'sse', url, headers?: KeyValueInput[], variables?:
 *   { [name]: Input } }`; `{name}` in the url is a variable (since 2025-12-11).
 * - Input: `description`, `isRequired`, `format` (string, number, boolean, filepath), `value` (a fixed
 *   value, not for the user to change; `{name}` in it is one of `variables`), `isSecret`, `default`,
 *   `placeholder`, `choices[]`; InputWithVariables adds `variables { [name]: Input }`.
 * - KeyValueInput: an InputWithVariables with a `name` (an environment variable or a header).
 * - Argument: `{ type: 'positional', value? , valueHint? }` (one of them; the valueHint labels an
 *   asked value) or `{ type: 'named', name: '--flag', value? }` (the flag, then its value), both
 *   InputWithVariables with `isRepeated`.
 */

/** A JSON object as read: its fields still unknown. */
export type Json = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field when it is a string, else undefined. */
export function text(object: Json, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** The field when it is `true` (absent or anything else: false, the schema's default). */
export function flag(object: Json, key: string): boolean {
  return object[key] === true;
}

/** The field as a list (absent: empty); undefined when it is there but not a list. */
export function list(object: Json, key: string): readonly unknown[] | undefined {
  const value = object[key];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : undefined;
}
