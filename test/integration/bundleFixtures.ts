import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { FIXTURES, ROOT } from './helpers';

/** The `mcpb` tool of the installed package, run as its own process. */
const MCPB = path.join(ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
const GREETER = path.join(ROOT, 'test/fixtures/bundles/greeter');

/**
 * Packs the greeter bundle (test/fixtures/bundles/greeter with miniServer.cjs beside its server)
 * with `mcpb pack` into `dir`; `manifest` may change its manifest first, `sign` signs it with
 * `mcpb sign --self-signed`. Returns the .mcpb file.
 */
export function packGreeter(dir: string, options: { readonly file?: string; readonly sign?: boolean; readonly manifest?: (m: Record<string, unknown>) => void } = {}): string {
  const source = fs.mkdtempSync(path.join(dir, 'src-'));
  fs.cpSync(GREETER, source, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'miniServer.cjs'), path.join(source, 'server/miniServer.cjs'));
  if (options.manifest) {
    const manifest = JSON.parse(fs.readFileSync(path.join(source, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    options.manifest(manifest);
    fs.writeFileSync(path.join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  }
  const out = path.join(dir, options.file ?? 'greeter.mcpb');
  execFileSync(process.execPath, [MCPB, 'pack', source, out], { stdio: 'pipe' });
  if (options.sign) execFileSync(process.execPath, [MCPB, 'sign', out, '--self-signed'], { stdio: 'pipe' });
  return out;
}

/**
 * Rewrites a packed bundle's archive (fflate, the zip library the package packs with): `change`
 * edits its files by name; `attrs` sets a file's external attributes (a Unix mode << 16).
 */
export function rezip(file: string, out: string, change: (files: Record<string, Uint8Array>) => void, attrs: Record<string, number> = {}): string {
  const files = unzipSync(fs.readFileSync(file));
  change(files);
  const zippable: Zippable = {};
  for (const [name, data] of Object.entries(files)) zippable[name] = name in attrs ? [data, { os: 3, attrs: attrs[name] }] : data;
  fs.writeFileSync(out, zipSync(zippable));
  return out;
}

/** Sets the uncompressed size the central directory declares for `name` (a bomb's lie, cheaply). */
export function declareSize(file: string, name: string, bytes: number): void {
  const zip = fs.readFileSync(file);
  for (let at = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2])); at >= 0; at = zip.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), at + 4)) {
    const length = zip.readUInt16LE(at + 28);
    if (zip.toString('utf8', at + 46, at + 46 + length) === name) {
      zip.writeUInt32LE(bytes, at + 24);
      fs.writeFileSync(file, zip);
      return;
    }
  }
  throw new Error(`${name} not in ${file}`);
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
