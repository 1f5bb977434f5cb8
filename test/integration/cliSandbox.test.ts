import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES, ROOT } from './helpers';

const CLI = path.join(ROOT, 'dist/cli.js');
const PROBE = path.join(FIXTURES, 'sandbox-probe.cjs');

/** Runs the built CLI (a real child process) in `cwd`. */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Issue 17: the CLI honours the same `sandbox` entries as the extension (the dist/ bundle, its own sandbox-runtime.mjs). */
describe('CLI: sandboxed servers (real processes, the built CLI)', function () {
  this.timeout(60_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-sandbox-')));
    fs.mkdirSync(path.join(dir, 'out'));
    env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state') };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const config = (sandbox: unknown) => fs.writeFileSync(path.join(dir, 'servers.json'), JSON.stringify({ servers: { probe: { command: process.execPath, args: [PROBE], sandbox } } }));
  const probe = (target: string, extraEnv: NodeJS.ProcessEnv = {}) => cli(['call', 'probe', 'probe', '--args', JSON.stringify({ action: 'write', target }), '--config', 'servers.json', '--yes'], dir, { ...env, ...extraEnv });

  it('writes only inside the allowed folder (relative to the working folder)', async () => {
    config({ filesystem: { allowWrite: ['out'] }, network: 'none' });
    const outside = await probe(path.join(dir, 'x.txt'));
    assert.equal(outside.code, 0, outside.stderr);
    assert.match(outside.stdout, /^denied: EROFS/);
    const inside = await probe(path.join(dir, 'out', 'x.txt'));
    assert.equal(inside.stdout, 'allowed\n', inside.stderr);
    assert.equal(fs.existsSync(path.join(dir, 'x.txt')), false);
  });

  it('where the machine cannot sandbox (no bubblewrap on PATH), refuses to start the server, saying why and how to install it; allowUnsandboxed runs it', async () => {
    config({ filesystem: { allowWrite: ['out'] } });
    const noTools = { PATH: path.dirname(process.execPath) === '/usr/bin' ? '/nonexistent' : path.dirname(process.execPath) };
    const refused = await probe(path.join(dir, 'x.txt'), noTools);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /configured to run in a sandbox, and .*(bwrap|bubblewrap)/);
    assert.match(refused.stderr, /apt-get install bubblewrap socat ripgrep/);
    assert.match(refused.stderr, /not started unsandboxed; to allow that, set "sandbox": \{ "allowUnsandboxed": true \}/);
    assert.equal(fs.existsSync(path.join(dir, 'x.txt')), false);
    config({ filesystem: { allowWrite: ['out'] }, allowUnsandboxed: true });
    const fallback = await probe(path.join(dir, 'x.txt'), noTools);
    assert.equal(fallback.stdout, 'allowed\n', fallback.stderr);
  });
});
