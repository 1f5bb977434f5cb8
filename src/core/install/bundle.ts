import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUNDLE_LIMITS, listArchive, readArchiveFile, type ArchiveEntry } from './bundleArchive';
import { BundleError, loadMcpb } from './bundleErrors';
import { parseManifest, type BundleManifest } from './bundleManifest';
import { bundlePlan, bundleServerName } from './bundlePlan';
import { checkSignature, type BundleSignature } from './bundleSignature';
import type { InstallPlan } from './installPlan';

/** A bundle read and checked, ready to be shown; nothing is on disk until `unpack`. */
export interface BundleInstall {
  readonly plan: InstallPlan;
  readonly signature: BundleSignature;
  readonly manifest: BundleManifest;
  /** Where `unpack` puts its files (the entry's `${__dirname}`). */
  readonly unpackDir: string;
  /** Unpacks the checked bytes into `unpackDir`, replacing an earlier copy; on failure nothing is left behind. */
  unpack(): Promise<void>;
}

/**
 * Reads a .mcpb file: its size (BUNDLE_LIMITS), its signature (a tampered one is refused), its
 * archive's entries (unsafe ones refused), and its manifest (checked by the package's schema); then
 * builds the InstallPlan for an unpack folder under `root`, one per bundle content
 * (`<name>-<sha256 prefix>`). The bytes checked are the bytes later unpacked: the file is read once.
 */
export async function readBundle(file: string, options: { readonly root: string; readonly name?: string }): Promise<BundleInstall> {
  return bundleFromBytes(await readCapped(file), file, options);
}

/** A bundle's bytes (read or downloaded, within BUNDLE_LIMITS.fileBytes) checked and planned as readBundle does; `source` is where they came from. */
export async function bundleFromBytes(bytes: Buffer, source: string, options: { readonly root: string; readonly name?: string }): Promise<BundleInstall> {
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const { content, signature } = await checkSignature(bytes);
  const entries = listArchive(content);
  const manifestBytes = readArchiveFile(content, 'manifest.json', BUNDLE_LIMITS.manifestBytes);
  if (!manifestBytes) throw new BundleError('The file holds no manifest.json at its top level: it is not an MCP Bundle.');
  const manifest = await parseManifest(manifestBytes);
  checkEntryPoint(manifest, entries);
  const platforms = manifest.compatibility?.platforms;
  if (platforms && !platforms.includes(process.platform as 'linux')) {
    throw new BundleError(`The bundle says it runs on ${platforms.join(', ')}; this machine is ${process.platform}.`);
  }
  const name = options.name ?? bundleServerName(manifest);
  const unpackDir = path.join(path.resolve(options.root), `${name.replace(/[^\w.-]/g, '_').slice(0, 40)}-${sha256.slice(0, 12)}`);
  const plan = bundlePlan(manifest, { name, unpackDir, origin: `bundle ${source} sha256:${sha256}`, signature });
  return { plan, signature, manifest, unpackDir, unpack: () => unpackTo(bytes, entries, unpackDir) };
}

async function readCapped(file: string): Promise<Buffer> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (err) {
    throw new BundleError(`Cannot read the bundle ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
  if (!stat.isFile()) throw new BundleError(`${file} is not a file.`);
  if (stat.size > BUNDLE_LIMITS.fileBytes) throw new BundleError(`The bundle ${file} is ${Math.round(stat.size / 1048576)} MiB, more than the ${BUNDLE_LIMITS.fileBytes / 1048576} MiB allowed.`);
  const bytes = await fs.promises.readFile(file);
  if (bytes.length > BUNDLE_LIMITS.fileBytes) throw new BundleError(`The bundle ${file} grew past ${BUNDLE_LIMITS.fileBytes / 1048576} MiB while it was read.`);
  return bytes;
}

/** The manifest's entry point must be a file of the bundle, inside it. */
function checkEntryPoint(manifest: BundleManifest, entries: readonly ArchiveEntry[]): void {
  const entry = manifest.server.entry_point.replace(/^\.\//, '');
  if (!entries.some((e) => !e.folder && e.name === entry)) {
    throw new BundleError(`The bundle's server.entry_point "${entry.slice(0, 200)}" is not a file in the bundle.`);
  }
}

/**
 * Unpacks through the package's `unpackExtension` into a fresh folder beside the target, from a
 * private copy of the bytes that were checked (never the file again: it may have changed), then
 * checks what was written and moves it into place. Any failure removes everything it made.
 */
async function unpackTo(bytes: Buffer, entries: readonly ArchiveEntry[], unpackDir: string): Promise<void> {
  const root = path.dirname(unpackDir);
  await fs.promises.mkdir(root, { recursive: true });
  const work = await fs.promises.mkdtemp(path.join(root, '.unpacking-'));
  try {
    const copy = path.join(work, 'bundle.mcpb');
    await fs.promises.writeFile(copy, bytes, { mode: 0o600, flag: 'wx' });
    const out = path.join(work, 'files');
    const { unpackExtension } = await loadMcpb();
    if (!(await unpackExtension({ mcpbPath: copy, outputDir: out, silent: true }))) throw new BundleError('The bundle could not be unpacked: its archive is damaged.');
    await checkWritten(out, entries);
    const old = `${unpackDir}.old-${process.pid}-${Date.now()}`;
    const hadOld = await fs.promises.rename(unpackDir, old).then(() => true, () => false);
    await fs.promises.rename(out, unpackDir);
    if (hadOld) await fs.promises.rm(old, { recursive: true, force: true });
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/**
 * What was written is what was checked: regular files and folders only, no more files or bytes.
 * Modes come from the archive: none may be writable by others (they could change what runs).
 */
async function checkWritten(dir: string, entries: readonly ArchiveEntry[]): Promise<void> {
  let files = 0;
  let total = 0;
  for (const item of await fs.promises.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (item.isSymbolicLink() || (!item.isFile() && !item.isDirectory())) throw new BundleError(`Unpacking made ${item.name}, which is not a regular file.`);
    const file = path.join(item.parentPath, item.name);
    const stat = await fs.promises.stat(file);
    if (stat.mode & 0o022) await fs.promises.chmod(file, stat.mode & 0o755);
    if (item.isFile()) {
      files++;
      total += stat.size;
    }
  }
  const declared = entries.filter((e) => !e.folder);
  if (files !== declared.length || total > declared.reduce((sum, e) => sum + e.bytes, 0)) throw new BundleError('Unpacking wrote other files than the bundle lists.');
}
