import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES } from './helpers';
import { runCli, type CliRun } from './cliRun';

/** The 2026-07-28 probe against 2025-era servers that answer it badly: by exiting, or after a banner on stdout. */
describe('the era probe and old servers, in the CLI (exits-on-probe.cjs, stdout-banner.cjs)', function () {
  this.timeout(60_000);
  let dir: string;
  const starts = () => path.join(dir, 'starts.log');
  const methods = () => path.join(dir, 'methods.log');
  const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
  const erasOf = (name: string) => {
    const file = path.join(dir, 'state', 'mcp-tool-host/eras.json');
    const eras = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<string, { era: string }>;
    return Object.entries(eras).filter(([k]) => k.startsWith(`protocolEra:${name}:`)).map(([, v]) => v.era);
  };
  function cli(servers: Record<string, unknown>, args: string[]): Promise<CliRun> {
    const config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers }));
    return runCli(['--config', config, ...args], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: path.join(dir, 'state') } });
  }
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-era-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a server that exits on the probe is started once more in the 2025 era, and that era is remembered', async () => {
    const old = { command: process.execPath, args: [path.join(FIXTURES, 'exits-on-probe.cjs')], env: { STARTS_LOG: starts(), METHODS_LOG: methods() } };
    const first = await cli({ old }, ['call', 'old', 'old']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'old era');
    assert.equal(lines(starts()).length, 2, 'started once more after it exited on the probe');
    assert.deepEqual(lines(methods()).slice(0, 2), ['server/discover', 'initialize']);
    assert.deepEqual(erasOf('old'), ['legacy']);
    fs.rmSync(starts());
    fs.rmSync(methods());
    const second = await cli({ old }, ['tools', 'old']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(lines(starts()).length, 1, 'the next run skips the probe: one start');
    assert.equal(lines(methods())[0], 'initialize');
  });

  it('a server that dies at its start fails as before, started at most once more, and no era is remembered', async () => {
    const dies = { command: process.execPath, args: [path.join(FIXTURES, 'crash-at-start.cjs')] };
    const run = await cli({ dies }, ['tools', 'dies']);
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stdout + run.stderr, /exited with code 3 .*API_KEY is not set/);
    assert.deepEqual(erasOf('dies'), []);
  });

  it('a line of text on stdout is the server\'s first output: the probe\'s grace runs from it (the server gives up on a client silent for 6 s)', async () => {
    const banner = { command: process.execPath, args: [path.join(FIXTURES, 'stdout-banner.cjs')] };
    const run = await cli({ banner }, ['tools', 'banner', '--timeout', '60']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /noop/);
    assert.deepEqual(erasOf('banner'), [], 'a probe given up is a guess, never remembered');
  });
});
