import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BatchedAuditLog } from '../../src/core/calls/batchedAuditLog';
import type { AuditRecord } from '../../src/core/calls/ports';

const record = (callId: string): AuditRecord => ({ time: new Date(0).toISOString(), callId, origin: 'gateway', server: 's', tool: 't', argsHash: 'h', decision: 'allowed', outcome: 'ok' });
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Until `done()` holds (the log's window has passed), at most 5 s. */
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 5000; !done(); await new Promise((r) => setTimeout(r, 5))) if (Date.now() > end) throw new Error('never written');
}

describe('the batched audit log (serve)', () => {
  let dir: string;
  let file: string;
  const ids = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as AuditRecord).callId) : []);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-audit-'));
    file = path.join(dir, 'state', 'audit.jsonl');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the first line at once, then the lines of a window together at its end, in order', async () => {
    const log = new BatchedAuditLog(file, 50);
    log.append(record('one'));
    assert.deepEqual(ids(), ['one']);
    log.append(record('two'));
    await turn();
    // A later turn's line joins the same write: lone answers (a slow tool's) do not each pay an append.
    log.append(record('three'));
    assert.deepEqual(ids(), ['one']);
    await until(() => ids().length > 1);
    assert.deepEqual(ids(), ['one', 'two', 'three']);
    log.append(record('four'));
    log.flush();
    assert.deepEqual(ids(), ['one', 'two', 'three', 'four']);
  });

  it('after a quiet window, a line is appended at the end of its turn, not a window later', async () => {
    const log = new BatchedAuditLog(file, 50);
    log.append(record('one'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    log.append(record('two'));
    assert.deepEqual(ids(), ['one']);
    await turn();
    assert.deepEqual(ids(), ['one', 'two']);
  });

  it('a folder it cannot make is the first call\'s error', () => {
    fs.writeFileSync(path.join(dir, 'blocker'), '');
    assert.throws(() => new BatchedAuditLog(path.join(dir, 'blocker', 'audit.jsonl')).append(record('one')), /ENOTDIR|EEXIST/);
  });

  it('a batch that cannot be written is thrown at the next call, not lost quietly', async () => {
    const log = new BatchedAuditLog(file);
    log.append(record('one'));
    // The file replaced by a folder: an append to it fails (EISDIR).
    fs.rmSync(file);
    fs.mkdirSync(file);
    log.append(record('two'));
    await until(() => {
      try {
        log.append(record('probe'));
        return false;
      } catch {
        return true;
      }
    });
    assert.throws(() => log.append(record('three')), /EISDIR/);
  });

  it('makes a record into its line when its window is written, not when the call ends', async () => {
    const log = new BatchedAuditLog(file);
    log.append(record('first'));
    let hashed = 0;
    const lazy = { ...record('second'), get argsHash() {
      hashed++;
      return 'made-late';
    } };
    log.append(lazy);
    assert.equal(hashed, 0, 'nothing of the line is made on the way of the answer');
    await turn();
    assert.equal(hashed, 0, 'nor at the end of its turn');
    await until(() => hashed > 0);
    assert.equal(hashed, 1);
    assert.match(fs.readFileSync(file, 'utf8'), /"callId":"second"[^\n]*"argsHash":"made-late"/);
  });
});
