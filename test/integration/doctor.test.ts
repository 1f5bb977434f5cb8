import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch } from '../../src/core/config/launch';
import { doctorServer, formatDoctorReport } from '../../src/core/connection/serverDoctor';
import { FIXTURES, ROOT, makeHost, node } from './helpers';

/** Doctor reads what the connection found out as values (ServerConnection.facts), never its log text. */
describe('doctor over real child processes: the facts it reports', function () {
  this.timeout(15_000);
  const hosts: ReturnType<typeof makeHost>[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  async function doctor(name: string, fixture: string, options: { handshakeTimeoutMs?: number } = {}) {
    const h = makeHost({ [name]: node(path.join(FIXTURES, fixture)) }, 'deny', options);
    hosts.push(h);
    const report = await doctorServer(h.pool.get(name)!, { resolveLaunch: (def) => resolveLaunch(def, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env }) });
    return { report, text: formatDoctorReport(report), logs: h.logs };
  }

  it('a failed tool listing fails the tools step with its reason', async () => {
    const { report } = await doctor('endless', 'endless-pages.cjs');
    assert.deepEqual(report.steps.map((s) => [s.step, s.ok]), [['spawn', true], ['initialize', true], ['tools', false]]);
    assert.equal(report.steps[2].detail, 'Listing tools failed: tools/list: exceeded listMaxPages (64); server pagination did not terminate');
    assert.equal(report.ok, false);
  });

  it('a server without the tools capability passes, and the report says why it has no tools', async () => {
    const { report } = await doctor('notools', 'no-tools-capability.cjs');
    assert.deepEqual(report.steps.at(-1), { step: 'tools', ok: true, detail: 'tools listed: 0 (the server does not declare the "tools" capability)' });
  });

  it('a failed start shows the last stderr lines the server wrote', async () => {
    const { report, text, logs } = await doctor('hang', 'hang-at-initialize.cjs', { handshakeTimeoutMs: 1000 });
    assert.equal(report.stderr.at(-1), 'waiting for database...');
    assert.deepEqual(report.stderr, logs.filter((l) => l.startsWith('hang stderr ')).map((l) => l.slice('hang stderr '.length)).slice(-10));
    assert.match(text, /stderr \(last \d+ lines\):\n(.*\n)* {4}waiting for database\.\.\./);
  });

  it('a sandbox that refused to start the server (no bubblewrap) fails the spawn step: nothing was spawned (issue 32)', async () => {
    // A PATH where `which` runs but finds no bwrap: how the sandbox library checks for it.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-nobwrap-'));
    fs.symlinkSync('/usr/bin/which', path.join(bin, 'which'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const h = makeHost({ boxed: node(path.join(FIXTURES, 'no-tools-capability.cjs'), { sandbox: true }) });
      hosts.push(h);
      const report = await doctorServer(h.pool.get('boxed')!, { resolveLaunch: (def) => resolveLaunch(def, { workspaceFolders: [{ name: 'root', path: ROOT }], env: {} }) });
      assert.deepEqual(report.steps.map((s) => [s.step, s.ok]), [['spawn', false]]);
      assert.match(report.steps[0].detail, /configured to run in a sandbox, and .*bubblewrap/);
      assert.doesNotMatch(formatDoctorReport(report), /\[ok\] +spawned/);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
