import * as assert from 'node:assert/strict';
import { fixture, gatewayFolder, stdioClient, textOf } from './gatewayClients';

describe('gateway: a server that dies during a call (serve, stdio, the official SDK client)', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());

  it('tells the model the call was sent and may have run in part, never "Not run" (a model would call a destructive tool again)', async () => {
    const { client } = await stdioClient(folder.config({ crash: fixture('crash-mid-call.cjs') }), folder.dir);
    try {
      const result = await client.callTool({ name: 'crash_explode', arguments: {} });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /^Failed after it was sent: The server exited with code 7 during the call\./);
      assert.match(text, /It may have run in part: check before calling it again\.$/);
      assert.doesNotMatch(text, /Not run/);
    } finally {
      await client.close();
    }
  });
});
