// V8's compiled code for the CLI's bundles, kept between runs. Every command loads
// dist/cli-commands.js (2.8 MB minified), and compiling it took most of a cold command's start-up
// (BENCHMARKS.md, case 14). Node >= 22.1 keeps the compiled code in a folder and reuses it while the
// file's content is unchanged (it checks each entry against a checksum of the source); Node 20 has no
// such API, and there the CLI starts as before.
import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { makeFolder, userCacheFolder } from '../core/userFolders';

/** What `module.enableCompileCache` is on Node >= 22.1 (@types/node 20 does not declare it). */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/**
 * The user's cache folder for it (core/userFolders.ts): `$XDG_CACHE_HOME/mcp-tool-host/compile-cache`,
 * `~/Library/Caches/...` on macOS, `%LOCALAPPDATA%\mcp-tool-host\Cache\...` on Windows. A folder of
 * the user's, not the shared temp folder Node would choose: compiled code from there runs as the user.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  const base = userCacheFolder(env, platform, home);
  return platform === 'win32' ? path.win32.join(base, 'mcp-tool-host', 'Cache', 'compile-cache') : path.posix.join(base, 'mcp-tool-host', 'compile-cache');
}

/**
 * Turns the cache on for the modules this process loads from now on; does nothing on Node 20, or
 * when the user turned Node's cache off (NODE_DISABLE_COMPILE_CACHE, which Node itself honours).
 * A cache that cannot be used (a folder it cannot write, entries that do not match) costs a compile,
 * never the command: Node then compiles as it would have.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    // Made here first, a level at a time: Node's own recursive mkdir never returns under /proc (userFolders.ts).
    const dir = compileCacheDir(env);
    makeFolder(dir);
    enable(dir);
  } catch {
    // Only a speed-up: the command runs without it.
  }
}
