import * as assert from 'node:assert/strict';
import { fixture, gatewayFolder, stdioClient, textOf } from './gatewayClients';
import { until } from './helpers';

describe('gateway: a server that dies during a call, or breaks its own output schema (serve, stdio, the official SDK client)', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());

  it('tells the model the call was sent and may have run in part, never "Not run" (a model would call a destructive tool again)', async () => {
    const { client, stderr } = await stdioClient(folder.config({ crash: fixture('crash-mid-call.cjs') }), folder.dir);
    try {
      const result = await client.callTool({ name: 'crash_explode', arguments: {} });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /^Failed after it was sent: The server exited with code 7 during the call\./);
      assert.match(text, /It may have run in part: check before calling it again\.$/);
      assert.doesNotMatch(text, /Not run/);
      // Called again while it waits to restart: not "Unknown tool" (a model would stop calling it), but why and when.
      const meanwhile = await client.callTool({ name: 'crash_explode', arguments: {} });
      assert.equal(meanwhile.isError, true);
      assert.match(textOf(meanwhile), /^Not run: server "crash" is not running: it stopped \(The server exited with code 7[^)]*\) and starts again in 1 s: call again then\. Nothing was sent\.$/);
      // Whoever reads the gateway's log is told too: the crash, the restart, and that it runs again.
      await until('the gateway to say the server runs again', () => /gateway: server "crash" is running again\./.test(stderr())).catch((err: Error) => assert.fail(`${err.message}; its stderr:\n${stderr()}`));
      assert.match(stderr(), /gateway: server "crash" failed: The server exited with code 7\. Restarting in 1 s\.\n/);
    } finally {
      await client.close();
    }
  });

  it('a server that never started is said once on stderr, where the listing leaves it out; its neighbour is offered', async () => {
    const { client, stderr } = await stdioClient(folder.config({ dies: fixture('crash-at-start.cjs'), cases: fixture('pipeline-cases.cjs') }), folder.dir);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('cases_bad_output') && !names.some((n) => n.startsWith('dies_')), names.join(', '));
      assert.equal(stderr().match(/"dies"/g)?.length, 1, stderr());
      assert.match(stderr(), /gateway: "dies" left out: it did not start \(The server exited with code 3 /);
    } finally {
      await client.close();
    }
  });

  it('flags a result that breaks its outputSchema as a tool error with its content, which the client takes (it threw on the result as sent)', async () => {
    const { client } = await stdioClient(folder.config({ cases: fixture('pipeline-cases.cjs') }), folder.dir);
    try {
      const listed = (await client.listTools()).tools.find((t) => t.name === 'cases_bad_output');
      assert.ok(listed?.outputSchema, 'the gateway offers the tool with its outputSchema');
      const result = await client.callTool({ name: 'cases_bad_output', arguments: {} });
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent, undefined);
      const blocks = result.content as { type: string; text?: string }[];
      assert.equal(blocks[0].text, '{"count":"three"}', 'the content as the tool sent it comes first');
      const text = blocks.map((b) => b.text ?? '').join('\n');
      assert.match(text, /The tool's result does not keep to its own output schema \(the gateway checked it\): structuredContent does not match the outputSchema: .*count/);
      assert.match(text, /do not rely on its structured result\.$/);
    } finally {
      await client.close();
    }
  });
});
