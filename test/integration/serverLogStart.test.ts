import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { EVERYTHING, FIXTURES, makeHost } from './helpers';

/**
 * A server as npx starts it: busy for a while before it reads stdin (npx checks the registry).
 * What we sent in the meantime waits in the pipe, and the answers come after our 2 s wait for
 * the 2026-07-28 probe (`server/discover`).
 */
const slowly = (script: string, ...args: string[]) => ({ command: 'sh', args: ['-c', 'sleep 2.5; exec "$0" "$@"', process.execPath, script, ...args] });

describe('a server\'s log from its start (issue 32: the first lines a user reads)', function () {
  this.timeout(30_000);
  const hosts: ReturnType<typeof makeHost>[] = [];
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.close())));

  /** Starts `spec` as server `name`, waits past its list_changed notifications, and returns its log lines. */
  const startLog = async (name: string, spec: unknown) => {
    const host = makeHost({ [name]: spec }, 'deny', { roots: () => [{ uri: 'file:///tmp', name: 'tmp' }] });
    hosts.push(host);
    const connection = host.pool.get(name)!;
    await connection.start();
    assert.equal(connection.state.kind, 'running', JSON.stringify(connection.state));
    await connection.listed();
    await new Promise((r) => setTimeout(r, 1500)); // a relist after list_changed waits 250 ms
    return host.logs.filter((line) => line.startsWith(`${name} `));
  };

  it('server-everything started slowly: no warning about our probe, and its tools are listed once', async () => {
    const log = await startLog('everything', slowly(EVERYTHING, 'stdio'));
    assert.deepEqual(log.filter((l) => /probe|server-discover|unknown message/i.test(l)), [], log.join('\n'));
    assert.deepEqual(log.filter((l) => / warn /.test(l)), [], log.join('\n'));
    assert.equal(log.filter((l) => / tools listed\.$/.test(l)).length, 1, log.join('\n'));
  });

  it('one of our 2025-era fixtures started slowly: no warning about our probe', async () => {
    const log = await startLog('slow', slowly(path.join(FIXTURES, 'slow-start.cjs')));
    assert.deepEqual(log.filter((l) => /probe|server-discover|unknown message| warn /i.test(l)), [], log.join('\n'));
    assert.equal(log.filter((l) => /info 1 tool listed\.$/.test(l)).length, 1, log.join('\n'));
  });
});
