import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES } from './helpers';
import { runCli, runOnTerminal } from './cliRun';

/** `resources` and `read` of the built CLI against the hostile fixture, as real child processes. */
describe('CLI resources and read (dist/cli.js)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-res-'));
  const config = path.join(dir, 'servers.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { hostile: { command: process.execPath, args: [path.join(FIXTURES, 'offers-hostile.cjs')] } } }));
  const env = { ...process.env, XDG_STATE_HOME: dir };
  const cli = (...args: string[]) => runCli([...args, '--config', config], { cwd: dir, env });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resources lists every page, --json too, --templates the templates', async () => {
    const text = await cli('resources', 'hostile');
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trim().split('\n').length, 121);
    const json = await cli('resources', 'hostile', '--json');
    assert.equal((JSON.parse(json.stdout) as { resources: unknown[] }).resources.length, 121);
    const templates = await cli('resources', 'hostile', '--templates');
    assert.match(templates.stdout, /hostile:\/\/files\/\{name\} {2}file by name {2}\(name\)/);
  });

  it('read prints text, audits it, and writes bytes to --out', async () => {
    const audit = path.join(dir, 'audit.jsonl');
    const text = await cli('read', 'hostile', 'hostile://r/5', '--audit', audit);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, 'resource 5\n');
    assert.match(fs.readFileSync(audit, 'utf8'), /"origin":"cli".*"tool":"resources\/read".*"outcome":"ok"/);
    const out = path.join(dir, 'blob.png');
    const blob = await cli('read', 'hostile', 'hostile://blob', '--out', out);
    assert.equal(blob.code, 0, blob.stderr);
    assert.ok(fs.readFileSync(out).includes('PNG'));
  });

  it('read of a missing resource or a stopped listing exits 4; without a URI, 2', async () => {
    const missing = await cli('read', 'hostile', 'hostile://nowhere');
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /Resource not found/);
    const usage = await cli('read', 'hostile');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /read needs SERVER and URI/);
  });

  it('read refuses bytes on a terminal', async () => {
    const run = await runOnTerminal(['read', 'hostile', 'hostile://blob', '--config', config], [], { cwd: dir, env });
    assert.equal(run.code, 2, run.output);
    assert.match(run.output, /holds bytes .*use --out FILE/);
  });
});
