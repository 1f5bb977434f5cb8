import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileCacheDir } from '../../src/cli/compileCache';
import { DEMO_SERVER, ROOT } from './helpers';
import { CLI } from './cliRun';

/** Node 24, as the e2e setup installs it (`npm test` awaits its first stage before this layer). */
function node24(): string {
  const node = execFileSync('bash', ['-c', '. "$1/scripts/e2e/env.sh" && printf %s "$NODE24"', 'bash', ROOT], { encoding: 'utf8' });
  assert.ok(fs.existsSync(node), `Node 24 is not installed at ${node}: run \`bash scripts/e2e/setup.sh --base\` (npm test does)`);
  return node;
}

/** Every file under `dir`, recursively. */
function filesIn(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile()) : [];
}

describe('the CLI keeps V8\'s compiled code of its bundles between runs (Node >= 22)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-compile-cache-'));
  const cacheHome = path.join(dir, 'cache');
  const cache = path.join(cacheHome, 'mcp-tool-host', 'compile-cache');
  const config = path.join(dir, 'servers.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { demo: { command: process.execPath, args: [DEMO_SERVER] } } }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** `tools demo` on `node`, with the test's cache folder (or `home`) and state folder. */
  const tools = (node: string, home = cacheHome) => {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, XDG_STATE_HOME: path.join(dir, 'state') };
    delete env.NODE_COMPILE_CACHE; // the CLI's own choice of folder, not one the caller set
    const run = spawnSync(node, [CLI, 'tools', 'demo', '--config', config, '--json'], { encoding: 'utf8', timeout: 30_000, env });
    assert.equal(run.status, 0, `tools demo on ${node}: ${run.stderr}`);
    return run.stdout;
  };

  it('is kept under the user\'s cache folder, not the shared temp folder', () => {
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u'), '/x/cache/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({}, 'linux', '/home/u'), '/home/u/.cache/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: '' }, 'linux', '/home/u'), '/home/u/.cache/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local\\mcp-tool-host\\Cache\\compile-cache');
  });

  it('attacker: a relative XDG_CACHE_HOME or LOCALAPPDATA is ignored (it would put the cache in the folder the command runs in: a repository)', () => {
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: '.cache' }, 'linux', '/home/u'), '/home/u/.cache/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: 'repo/../x' }, 'linux', '/home/u'), '/home/u/.cache/mcp-tool-host/compile-cache');
    assert.equal(compileCacheDir({ LOCALAPPDATA: 'AppData' }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Local\\mcp-tool-host\\Cache\\compile-cache');
  });

  it('on Node 24: the first command fills the cache, and the next gives the same answer from it', () => {
    const node = node24();
    const first = tools(node);
    assert.match(first, /"name": "list_notes"/);
    const entries = filesIn(cache);
    assert.ok(entries.length > 0, `compiled code was kept in ${cache}`);
    const bytes = entries.reduce((n, f) => n + fs.statSync(f).size, 0);
    assert.ok(bytes > 100_000, `the commands' bundle is among it (${bytes} bytes in ${entries.length} files)`);
    assert.equal(tools(node), first);
  });

  it('a cache folder that cannot be made (under /proc, where Node\'s own recursive mkdir never returns) costs the cache, never the command', () => {
    const answer = tools(node24(), '/proc/no-such-place');
    assert.match(answer, /"name": "list_notes"/);
  });

  it('attacker: entries overwritten with other bytes are not run: the command gives the same answer', () => {
    const node = node24();
    const before = tools(node);
    const entries = filesIn(cache);
    assert.ok(entries.length > 0);
    // Garbage, and entries cut short: V8 and Node must refuse both and compile the file again.
    entries.forEach((f, i) => fs.writeFileSync(f, i % 2 ? Buffer.alloc(fs.statSync(f).size, 0x41) : fs.readFileSync(f).subarray(0, 64)));
    assert.equal(tools(node), before);
    assert.equal(tools(node), before);
  });

  it('on Node 20 (no such API) the command runs as before and makes no cache folder', function () {
    if (Number(process.versions.node.split('.')[0]) >= 22) this.skip(); // the layer runs on the machine's Node 20
    fs.rmSync(cache, { recursive: true, force: true });
    assert.match(tools(process.execPath), /"name": "list_notes"/);
    assert.equal(fs.existsSync(cache), false);
  });
});
