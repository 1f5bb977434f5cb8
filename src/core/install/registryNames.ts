/**
 * The name and version grammars of the package registries an entry may point at. What fails one
 * is refused, never quoted or escaped: a name with `;`, a space or a leading `-` is not a package
 * any of them would serve, and on a command line it could be an option of the launcher instead.
 * Each function returns the problem, or undefined when the text is fine.
 */

/** npm's rules for new packages: lower case, URL-safe, an optional @scope, at most 214 characters. */
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;
/** PEP 508 project names. */
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A full semantic version, the only npm version that is not a range. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
/** A PEP 440 public version (with an optional local part): what `==` pins. */
const PEP440 = /^(?:\d+!)?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?\d*)?(?:(?:-\d+)|(?:[-_.]?(?:post|rev|r)[-_.]?\d*))?(?:[-_.]?dev[-_.]?\d*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;
/** OCI distribution spec: a path component, a registry host (with a port), a tag, a digest. */
const OCI_COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const OCI_HOST = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::\d{1,5})?$/;
const OCI_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const OCI_DIGEST = /^sha256:[a-f0-9]{64}$/;

/** Why a version is not one exact version, when it is `latest`, empty or a range; undefined otherwise. */
function notPinned(version: string | undefined): string | undefined {
  if (version === undefined || version.trim() === '') return 'it names no version: only an exact version is installed';
  if (/^latest$/i.test(version.trim())) return 'its version is "latest", which changes under you: only an exact version is installed';
  if (/[\^~<>=*|,\s]|(?:^|\.)[xX](?:\.|$)/.test(version)) return `its version "${version}" is a range: only an exact version is installed`;
  return undefined;
}

export function checkNpm(name: string, version: string | undefined): string | undefined {
  if (name.length > 214 || !NPM_NAME.test(name)) return `"${name}" is not an npm package name`;
  return notPinned(version) ?? (SEMVER.test(version!) ? undefined : `"${version}" is not an exact npm version (major.minor.patch)`);
}

export function checkPypi(name: string, version: string | undefined): string | undefined {
  if (name.length > 200 || !PYPI_NAME.test(name)) return `"${name}" is not a PyPI project name`;
  return notPinned(version) ?? (PEP440.test(version!) ? undefined : `"${version}" is not an exact PyPI version`);
}

/**
 * The image reference docker will pull, from the identifier (with its tag or digest, the schema
 * since 2025-10-11) or from an older entry's identifier and version; or the problem with it.
 */
export function ociReference(identifier: string, version: string | undefined): { reference: string } | { problem: string } {
  const at = identifier.indexOf('@');
  const digest = at === -1 ? undefined : identifier.slice(at + 1);
  const beforeDigest = at === -1 ? identifier : identifier.slice(0, at);
  const colon = beforeDigest.lastIndexOf(':');
  const tagged = colon > beforeDigest.lastIndexOf('/');
  const name = tagged ? beforeDigest.slice(0, colon) : beforeDigest;
  let tag = tagged ? beforeDigest.slice(colon + 1) : undefined;
  const parts = name.split('/');
  const host = parts.length > 1 && /[.:]|^localhost$/.test(parts[0]) ? parts.shift()! : undefined;
  if (identifier.length > 255 || (host !== undefined && !OCI_HOST.test(host)) || !parts.every((p) => OCI_COMPONENT.test(p))) return { problem: `"${identifier}" is not an OCI image reference` };
  if (digest !== undefined) return OCI_DIGEST.test(digest) ? { reference: identifier } : { problem: `"${digest}" is not an image digest (sha256:<64 hex digits>)` };
  if (tag === undefined && version !== undefined && version !== '') tag = version;
  const unpinned = notPinned(tag);
  if (unpinned) return { problem: unpinned };
  if (!OCI_TAG.test(tag!)) return { problem: `"${tag}" is not an image tag` };
  return { reference: `${name}:${tag}` };
}

/** Environment variable names a process can be given: a letter or `_`, then letters, digits and `_`. */
export function checkEnvName(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name) ? undefined : `"${name}" is not an environment variable name`;
}

/** HTTP header names (RFC 9110 tokens), less those the connection itself must set. */
export function checkHeaderName(name: string): string | undefined {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/.test(name)) return `"${name}" is not an HTTP header name`;
  if (/^(host|content-length|transfer-encoding|connection|upgrade|te|trailer|keep-alive|mcp-session-id|mcp-protocol-version)$/i.test(name)) return `the header "${name}" is the connection's own to set`;
  return undefined;
}

/** Names of `{variables}`, argument value hints and flags: plain words (a flag may lead with dashes). */
export function checkWord(name: string, what: string): string | undefined {
  return /^-{0,2}[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(name) ? undefined : `"${name}" is not a plain ${what} name`;
}
