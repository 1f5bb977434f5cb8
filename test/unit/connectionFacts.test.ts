import * as assert from 'node:assert/strict';
import { FactRecorder } from '../../src/core/connection/connectionFacts';
import { silentLog } from '../../src/core/serverLog';

describe('FactRecorder: what a connection found out, as values', () => {
  it('keeps the last 20 stderr lines and passes every line on to the log', () => {
    const recorder = new FactRecorder();
    const seen: string[] = [];
    const log = recorder.keepingStderr({ ...silentLog, stderr: (line) => seen.push(line) });
    for (let i = 1; i <= 25; i++) log.stderr(`line ${i}`);
    const facts = recorder.facts(undefined);
    assert.equal(seen.length, 25);
    assert.equal(facts.stderr.length, 20);
    assert.equal(facts.stderr[0], 'line 6');
    assert.equal(facts.stderr.at(-1), 'line 25');
  });

  it('reports the listing error it is given and the missing tools capability', () => {
    const recorder = new FactRecorder();
    recorder.noToolsCapability = true;
    assert.deepEqual(recorder.facts('Listing tools failed: boom'), { stderr: [], listingError: 'Listing tools failed: boom', noToolsCapability: true, spawned: false });
  });
});
