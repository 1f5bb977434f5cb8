import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discardEarly, spawnEarly } from '../../src/core/transport/serverSpawn';
import { alive, FIXTURES, until } from './helpers';

// The CLI spawns the server of `call` before its commands load; one the normal path did not adopt
// is ended by discardEarly, with the stop every server gets: stdin closed, SIGTERM, then SIGKILL.
describe('an early-started server nobody adopted is stopped like any other', function () {
  this.timeout(30_000);
  let dir: string;
  let pids: number[] = [];
  before(function () {
    if (process.platform !== 'linux') this.skip(); // processes read from /proc
  });
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-discard-'))));
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const events = () => (fs.existsSync(path.join(dir, 'events.txt')) ? fs.readFileSync(path.join(dir, 'events.txt'), 'utf8').split('\n').filter(Boolean) : []);

  /** slow-shutdown.cjs spawned early, with `env`; resolves once it wrote its pids (its own, and its child's when stubborn: then both ignore SIGTERM). */
  async function early(env: Record<string, string>) {
    const server = spawnEarly({ command: process.execPath, args: [path.join(FIXTURES, 'slow-shutdown.cjs')], env: { PATH: process.env.PATH ?? '', EVENTS_FILE: path.join(dir, 'events.txt'), ...env }, cwd: dir }, randomUUID());
    await server.spawned;
    await until('its pids', () => events().some((l) => l.startsWith('pids ')));
    pids = JSON.parse(events()[0].slice('pids '.length)) as number[];
    return server;
  }

  it('one that ignores the end of its stdin and SIGTERM, with a child that does too, is killed after the grace', async () => {
    const server = await early({ STUBBORN: '1' });
    assert.equal(pids.length, 2);
    discardEarly(server);
    await until('the server and its child to be gone', () => !pids.some(alive), 10_000).catch(() => undefined);
    assert.deepEqual(pids.filter(alive), [], `left behind: ${pids.filter(alive).join(', ')}; it saw: ${events().slice(1).join(', ')}`);
    assert.ok(events().includes('term'), 'it was asked with SIGTERM first');
  });

  it('one that already exited, leaving a child that ignores SIGTERM: the child is stopped too', async () => {
    const server = await early({ STUBBORN: '1', LEAVE_CHILD: '1' });
    const child = pids[1];
    await until('the server to exit', () => server.exit !== undefined);
    assert.ok(alive(child), 'its child is running (the test is not vacuous)');
    discardEarly(server);
    await until('its child to be gone', () => !alive(child), 10_000).catch(() => undefined);
    assert.equal(alive(child), false, `its child ${child} was left behind`);
  });

  it('a well-behaved one goes at the end of its stdin, before any signal', async () => {
    const server = await early({ SHUTDOWN_MS: '200' });
    discardEarly(server);
    await until('the server to be gone', () => !pids.some(alive), 10_000);
    assert.deepEqual(events().slice(1), ['eof']);
  });
});
