import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES } from './helpers';
import { runCli } from './cliRun';

/**
 * The CLI's audit log when it cannot be written (issue: a call ran and its result was lost): a log
 * that cannot be opened stops the call before it is sent; one that fails after the call ran (a
 * full disk) still shows the result, then fails the run naming the file. Real child processes:
 * the built CLI and a file server that records every call it receives.
 */
describe('the CLI when its audit log cannot be written (node dist/cli.js, a server that records its calls)', function () {
  this.timeout(60_000);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-audit-')));
  const calls = path.join(dir, 'calls.jsonl');
  const config = path.join(dir, 'servers.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { files: { command: process.execPath, args: [path.join(FIXTURES, 'recorded-files.cjs'), calls] } } }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const received = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').filter((l) => l) : []);
  const call = (extra: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['call', 'files', 'write_file', '--args', '{"path":"a.txt"}', '--yes', '--config', config, ...extra], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: path.join(dir, 'state'), ...env } });

  it('a log that fails after the call ran (a full disk) still shows the result, then fails the run naming the file', async () => {
    if (!fs.existsSync('/dev/full')) return;
    const run = await call(['--audit', '/dev/full']);
    assert.equal(run.code, 4, run.stderr);
    assert.equal(run.stdout, 'write_file a.txt\n', 'the result of the call that ran');
    assert.match(run.stderr, /^error: the call ended \(ok\), but its audit record could not be written \(ENOSPC\) in \/dev\/full\.$/m);
    assert.equal(received().length, 1);
  });

  it('a log that cannot be opened (a folder, a folder under /proc) stops the call before it is sent, and does not spin (Node\'s recursive mkdir never returns under /proc)', async () => {
    const before = received().length;
    for (const [extra, env] of [[['--audit', dir], {}], [['--audit', '/proc/no-such-place/audit.jsonl'], {}], [[], { XDG_STATE_HOME: '/proc/no-such-place' }]] as const) {
      const run = await call([...extra], env);
      assert.equal(run.code, 2, `${extra.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^error: the audit log .* cannot be written \((EISDIR|ENOENT)\): nothing was sent\. Give --audit FILE in a folder you can write\.$/m);
    }
    assert.equal(received().length, before, 'the server received nothing');
  });
});
