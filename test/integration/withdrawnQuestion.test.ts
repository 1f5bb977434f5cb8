import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CallEnd, ElicitationAnswer, FormRequest } from '../../src/core/elicitation/formElicitation';
import type { UrlRequest } from '../../src/core/elicitation/urlElicitation';
import { FIXTURES, makeHost, node } from './helpers';
import { runOnTerminal } from './cliRun';

const ELICITS = path.join(FIXTURES, 'elicits.cjs');

// A server that withdraws its own question: it sends elicitation/create during a call, then
// notifications/cancelled for that request. The open prompt closes saying the server withdrew it,
// and the host sends nothing back (the server would read a late answer as one to a question it dropped).
describe('a server withdraws the question it asked (notifications/cancelled for its elicitation/create)', function () {
  this.timeout(60_000);

  it('the prompt is told at once, with the reason "withdrawn", and no answer goes back to the server', async () => {
    const seen: { request: FormRequest | UrlRequest; endedAfterMs?: number; reason?: CallEnd }[] = [];
    // A user who never answers: the prompt ends only when the host closes it.
    const elicit = (request: FormRequest | UrlRequest) => {
      const entry: (typeof seen)[number] = { request };
      seen.push(entry);
      const shown = Date.now();
      return new Promise<ElicitationAnswer>((resolve) => {
        request.callsEnded?.addEventListener('abort', () => {
          entry.endedAfterMs = Date.now() - shown;
          entry.reason = request.callsEnded!.reason as CallEnd;
          resolve({ action: 'cancel' });
        });
      });
    };
    const host = makeHost({ e: node(ELICITS) }, 'allow-once', { elicit });
    try {
      await host.pool.get('e')!.start();
      // Withdrawn after 500 ms; the call itself goes on for 3 s more.
      const outcome = await host.pipeline.call({ server: 'e', tool: 'withdraws', args: { afterMs: 500, waitMs: 3000 }, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(outcome.result.text), { withdrawn: true, answered: null }, 'nothing was sent back for the withdrawn request');
      assert.equal(seen.length, 1);
      assert.equal(seen[0].request.message, 'Which colour?');
      assert.equal(seen[0].reason, 'withdrawn', 'the prompt learns the server withdrew it, not that the call ended');
      assert.ok(seen[0].endedAfterMs !== undefined && seen[0].endedAfterMs < 2500, `closed ${seen[0].endedAfterMs} ms after it was shown, while the call still ran`);
    } finally {
      await host.close();
    }
  });

  it('the CLI on a terminal: the open question ends with the message, and the call goes on to its result', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-withdrawn-'));
    try {
      fs.writeFileSync(path.join(dir, 'elicits.json'), JSON.stringify({ servers: { e: { command: process.execPath, args: [ELICITS] } } }));
      // "y": answer the form; then the Colour question stays open until the server withdraws it.
      const r = await runOnTerminal(['call', 'e', 'withdraws', '--config', 'elicits.json', '--args', '{"afterMs":2000}'], ['y'], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir } });
      assert.match(r.output, /Colour \(text\)/);
      assert.match(r.output, /The question was closed: the server withdrew it during its call "withdraws"\. Nothing was sent back\./);
      assert.match(r.output, /\{"withdrawn":true,"answered":null\}/);
      assert.equal(r.code, 0, r.output);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
