import type { SecretStore } from '../core/auth/ports';

/**
 * The Windows Credential Manager keeps at most 2,560 bytes a credential, and the keychain library
 * stores a password as UTF-16: 1,280 UTF-16 code units. A sign-in record (a JWT access token, a
 * refresh token, a DPoP key) often passes that.
 */
export const WINDOWS_MAX_UTF16_UNITS = 1280;
/** A record is split into at most this many entries (32 KB on Windows); a larger one is refused. */
export const MAX_PARTS = 25;
/** What the entry of a split record holds instead of the record: the count of its parts. */
const PARTS_HEADER = 'mcp-tool-host:parts:';

/** The entry of part `n` (1-based) of the record kept under `key`. */
function partKey(key: string, n: number): string {
  return `${key}#part${n}`;
}

/**
 * How many entries a record of `value` takes on `platform`: one, except on Windows when it passes
 * the Credential Manager's size, where it is cut into parts that each fit. Undefined when even
 * that is more than MAX_PARTS.
 */
export function partsNeeded(value: string, platform: NodeJS.Platform): number | undefined {
  if (platform !== 'win32' || value.length <= WINDOWS_MAX_UTF16_UNITS) return 1;
  const parts = cut(value).length;
  return parts <= MAX_PARTS ? parts : undefined;
}

/** `value` cut into pieces of at most WINDOWS_MAX_UTF16_UNITS units, never between the two halves of a surrogate pair. */
function cut(value: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < value.length; ) {
    let end = Math.min(at + WINDOWS_MAX_UTF16_UNITS, value.length);
    const last = value.charCodeAt(end - 1);
    if (end < value.length && last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate stays with its low one
    pieces.push(value.slice(at, end));
    at = end;
  }
  return pieces;
}

/**
 * A SecretStore over keychain `entries` that keeps a record too large for one Windows credential
 * in several: the record's own entry then holds only how many parts follow (`key#part1`…).
 * Elsewhere a record is one entry, as before. A record over MAX_PARTS is refused with what to do.
 */
export function splitRecords(entries: SecretStore, platform: NodeJS.Platform, keychainName: string): SecretStore {
  const partsOf = (head: string | undefined) => (head?.startsWith(PARTS_HEADER) ? Number(head.slice(PARTS_HEADER.length)) : 0);
  const dropParts = async (key: string, from: number, to: number) => {
    for (let n = from; n <= to; n++) await entries.delete(partKey(key, n));
  };
  return {
    async get(key) {
      const head = await entries.get(key);
      const count = partsOf(head);
      if (count === 0) return head;
      const pieces: string[] = [];
      for (let n = 1; n <= count; n++) {
        const piece = await entries.get(partKey(key, n));
        if (piece === undefined) return undefined; // a part went missing: as if never signed in (a sign-in writes it whole again)
        pieces.push(piece);
      }
      return pieces.join('');
    },
    async store(key, value) {
      const needed = partsNeeded(value, platform);
      if (needed === undefined) {
        throw new Error(`The sign-in is too large for ${keychainName} (${value.length} characters; at most about ${MAX_PARTS * WINDOWS_MAX_UTF16_UNITS} in ${MAX_PARTS} entries), so it was not kept. Keep sign-ins in the file instead: set MCP_TOOL_HOST_CREDENTIALS=file.`);
      }
      const before = partsOf(await entries.get(key));
      if (needed === 1) {
        await entries.store(key, value);
        await dropParts(key, 1, before);
        return;
      }
      const pieces = cut(value);
      for (const [i, piece] of pieces.entries()) await entries.store(partKey(key, i + 1), piece);
      await entries.store(key, `${PARTS_HEADER}${pieces.length}`); // last: the record is whole before it is named
      await dropParts(key, pieces.length + 1, before);
    },
    async delete(key) {
      const count = partsOf(await entries.get(key));
      await entries.delete(key);
      await dropParts(key, 1, count);
    },
  };
}
