import * as assert from 'node:assert/strict';
import { runCli } from './cliRun';
import { fixture, gatewayFolder, stdioClient, textOf } from './gatewayClients';

describe('gateway: serve --rate-limit PER_SECOND[/BURST] (the calls each server may take)', function () {
  this.timeout(90_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());
  const config = () => folder.config({ notes: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }) });
  /** Fans out `count` calls at once; how many ran and how many were refused as too many. */
  const fanOut = async (extra: readonly string[], count: number) => {
    const { client } = await stdioClient(config(), folder.dir, undefined, extra);
    try {
      const results = await Promise.all(Array.from({ length: count }, () => client.callTool({ name: 'notes_read_file', arguments: { path: 'a.txt' } })));
      const refused = results.filter((r) => r.isError && /^Not run: Too many calls to "notes" \(rate limit, serve --rate-limit\): nothing was sent\./.test(textOf(r)));
      return { ran: results.filter((r) => !r.isError).length, refused: refused.length };
    } finally {
      await client.close();
    }
  };

  it('lets an agent that fans out more than the default burst (20) through when raised, and holds to a lower one', async () => {
    assert.deepEqual(await fanOut([], 30), { ran: 20, refused: 10 }, 'the default: burst 20');
    assert.deepEqual(await fanOut(['--rate-limit', '100/40'], 30), { ran: 30, refused: 0 });
    assert.deepEqual(await fanOut(['--rate-limit', '0.5/3'], 5), { ran: 3, refused: 2 });
  });

  it('refuses a bad value with a specific error before anything starts, and the option outside serve', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: folder.dir };
    const bad = await runCli(['serve', '--config', config(), '--rate-limit', '10/0'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--rate-limit must be PER_SECOND\[\/BURST\].*not "10\/0": the burst is below 1\./);
    const elsewhere = await runCli(['tools', '--config', config(), '--rate-limit', '10'], { env });
    assert.equal(elsewhere.code, 2);
    assert.match(elsewhere.stderr, /--http, --port, --tools, --rate-limit and --result-tokens are for serve\./);
  });
});
