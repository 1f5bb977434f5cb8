import { unzipSync } from 'fflate';
import { shownName } from '../render/sanitize';
import { BundleError } from './bundleErrors';

/** What a bundle may hold: past these it is refused before anything is written. */
export const BUNDLE_LIMITS = {
  /** The .mcpb file itself. */
  fileBytes: 100 * 1024 * 1024,
  /** All its files unpacked, by their declared sizes (inflating never writes past a declared size). */
  unpackedBytes: 300 * 1024 * 1024,
  files: 10_000,
  manifestBytes: 1024 * 1024,
} as const;

/** One file or folder of a bundle's archive, its name checked. */
export interface ArchiveEntry {
  readonly name: string;
  readonly bytes: number;
  readonly folder: boolean;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const UNIX_HOST = 3;

/**
 * The entries of a bundle's zip archive, or a BundleError naming the first that cannot be unpacked
 * safely: a name with `..`, an absolute or drive path, a backslash or a NUL; a symbolic link or
 * other special file; a `:` (a Windows stream); a name twice; more files or more bytes than BUNDLE_LIMITS. Sizes are the
 * archive's declared ones, which bound what unpacking writes. Nothing is inflated here.
 */
export function listArchive(zip: Uint8Array): ArchiveEntry[] {
  const modes = unixModes(zip);
  const entries: ArchiveEntry[] = [];
  try {
    unzipSync(zip, {
      filter: (file) => {
        entries.push(checkedEntry(file.name, file.originalSize, modes[entries.length]));
        if (entries.length > BUNDLE_LIMITS.files) throw new BundleError(`The bundle holds more than ${BUNDLE_LIMITS.files} files.`);
        return false;
      },
    });
  } catch (err) {
    if (err instanceof BundleError) throw err;
    throw new BundleError(`The bundle is not a readable zip archive (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (entries.length !== modes.length) throw new BundleError('The bundle\'s zip archive lists its files inconsistently.');
  const total = entries.reduce((sum, e) => sum + e.bytes, 0);
  if (total > BUNDLE_LIMITS.unpackedBytes) throw new BundleError(`The bundle would unpack to ${mib(total)} MiB, more than the ${mib(BUNDLE_LIMITS.unpackedBytes)} MiB allowed.`);
  const seen = new Set<string>();
  for (const e of entries) {
    const key = e.name.replace(/\/$/, '').toLowerCase();
    if (seen.has(key)) throw new BundleError(`The bundle holds "${shown(e.name)}" twice.`);
    seen.add(key);
  }
  return entries;
}

/** One file's bytes (the manifest), at most `maxBytes`; undefined when the archive has no such file. */
export function readArchiveFile(zip: Uint8Array, name: string, maxBytes: number): Uint8Array | undefined {
  let tooBig = false;
  const files = unzipSync(zip, {
    filter: (file) => {
      if (file.name !== name) return false;
      tooBig = file.originalSize > maxBytes;
      return !tooBig;
    },
  });
  if (tooBig) throw new BundleError(`The bundle's ${name} is larger than ${maxBytes / 1024} KiB.`);
  return files[name];
}

function checkedEntry(name: string, bytes: number, mode: number | undefined): ArchiveEntry {
  const folder = name.endsWith('/');
  const parts = name.replace(/\/$/, '').split('/');
  const problem =
    name.length === 0 || name.length > 1024 ? 'has an empty or overlong name'
    : name.includes('\0') ? 'has a NUL in its name'
    : name.includes('\\') ? 'has a backslash in its name (a path separator on Windows)'
    : name.startsWith('/') || /^[a-zA-Z]:/.test(name) ? 'is an absolute path'
    : name.includes(':') ? 'has a ":" in its name (a stream of another file on Windows)'
    : parts.some((p) => p === '..') ? 'climbs out of the bundle with ".."'
    : parts.some((p) => p === '') ? 'has an empty path segment'
    : mode !== undefined && (mode & S_IFMT) !== 0 && (mode & S_IFMT) !== S_IFREG && (mode & S_IFMT) !== S_IFDIR ? ((mode & S_IFMT) === S_IFLNK ? 'is a symbolic link' : 'is a special file')
    : undefined;
  if (problem) throw new BundleError(`The bundle cannot be unpacked safely: its entry "${shown(name)}" ${problem}.`);
  return { name, bytes, folder };
}

/**
 * The Unix file type and mode of each central directory entry, in order (0 when the archive was
 * not made on Unix). fflate reads names and sizes but not these, and a symbolic link is known only by them.
 */
function unixModes(zip: Uint8Array): number[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new BundleError('The bundle is not a zip archive (no end of central directory).');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) throw new BundleError('The bundle is a zip64 archive, which is not supported (bundles are far smaller than 4 GiB).');
  const modes: number[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || view.getUint32(offset, true) !== 0x02014b50) throw new BundleError('The bundle\'s zip central directory is damaged.');
    const host = view.getUint8(offset + 5);
    const external = view.getUint32(offset + 38, true);
    modes.push(host === UNIX_HOST ? external >>> 16 : 0);
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return modes;
}

/** A name from the archive as the user reads it: invisible and control characters escaped, cut. */
function shown(name: string): string {
  return shownName(name.slice(0, 200));
}

function mib(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}
