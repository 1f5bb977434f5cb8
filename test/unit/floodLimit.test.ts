import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FloodLimit, forgetClosedConnections } from '../../src/core/gateway/httpGuard';

/** One GET to `port` on a connection of its own, closed after it. */
function getOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('FloodLimit (the HTTP gateway\'s per-client request budget)', () => {
  it('gives each client its own budget: one over its rate leaves the others untouched', () => {
    const flood = new FloodLimit<string>(3, 2);
    assert.deepEqual([1, 2, 3, 4].map(() => flood.take('flooder', 0)), [true, true, true, false]);
    assert.equal(flood.take('newcomer', 0), true);
    assert.equal(flood.take('flooder', 500), true, 'refilled at its rate');
    assert.equal(flood.take('flooder', 500), false);
  });

  it('keeps at most its cap of budgets: the oldest makes room', () => {
    const flood = new FloodLimit<number>(1, 1, 10);
    for (let client = 0; client < 1_000; client++) flood.take(client, 0);
    assert.equal(flood.size, 10);
    assert.equal(flood.take(999, 0), false, 'the newest still has its spent budget');
    flood.forget(999);
    assert.equal(flood.size, 9);
  });

  it("drops a connection's budget when it closes: a client that opens a connection per request leaves nothing behind", async () => {
    const flood = new FloodLimit<string | Socket>(5, 1);
    const listener = http.createServer((req, res) => res.writeHead(flood.take(req.socket) ? 200 : 429).end());
    forgetClosedConnections(listener, flood);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (listener.address() as AddressInfo).port;
      const statuses = await Promise.all(Array.from({ length: 200 }, () => getOnce(port)));
      assert.deepEqual([...new Set(statuses)], [200], 'each connection is a client of its own');
      for (let waited = 0; flood.size > 0 && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.equal(flood.size, 0);
    } finally {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
