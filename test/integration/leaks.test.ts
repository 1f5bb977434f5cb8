import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import { RestartPolicy } from '../../src/core/connection/restartPolicy';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { FIXTURES, ROOT } from './helpers';

/** Our direct and indirect child processes, zombies excluded. */
function descendants(): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,comm='], { encoding: 'utf8' }).trim().split('\n').map((l) => l.trim().split(/\s+/));
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [pid, ppid, stat, comm] of rows) {
      if (Number(ppid) !== parent || stat.startsWith('Z') || comm === 'ps') continue;
      found.push(Number(pid));
      walk(Number(pid));
    }
  };
  walk(process.pid);
  return found;
}

const activeHandles = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;

describe('no leaks after 50 start / crash / restart cycles', function () {
  // 75 real server starts: ~20 s on a quiet machine, more beside the other half of the tests (a bound for a hang, not a speed goal).
  this.timeout(90_000);
  it('child processes and open handles are back where they started', async () => {
    const counter = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-leak-')), 'starts');
    const [def] = parseServers({ s: { command: process.execPath, args: [path.join(FIXTURES, 'crash-soon.cjs')], env: { START_COUNT_FILE: counter, CRASH_AFTER_MS: '30' } } }, 'user').servers;
    await new Promise((r) => setTimeout(r, 200));
    const childrenBefore = descendants().length;
    const handlesBefore = activeHandles();
    for (let i = 0; i < 50; i++) {
      const c = new ServerConnection(def, {
        validator: new SchemaValidator(),
        clientVersion: 'test',
        log: { info() {}, warn() {}, error() {}, stderr() {} },
        resolveLaunch: async (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env }),
        restartPolicy: new RestartPolicy([10], 60_000),
      });
      await c.start();
      assert.equal(c.state.kind, 'running', `cycle ${i}`);
      const state = () => c.state as { kind: string; message?: string };
      if (i % 2 === 0) {
        // let it crash (30 ms after listing), restart once automatically, crash again, give up
        const end = Date.now() + 5000;
        while (!(state().kind === 'error' && /automatic restarts stopped/.test(state().message ?? '')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
        assert.equal(state().kind, 'error', `cycle ${i} gave up`);
      }
      await c.stop();
      c.dispose();
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(descendants(), [], 'no child process is left');
    assert.equal(descendants().length, childrenBefore);
    assert.ok(activeHandles() <= handlesBefore + 1, `handles before ${handlesBefore}, after ${activeHandles()}`);
    assert.equal(fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length, 25 * 2 + 25, 'every cycle really started (and restarted) the server');
  });
});
