import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioTransport } from '../../src/core/transport/stdioTransport';

// A server that answers every request line at once with: a progress notification, a large
// result (over the off-thread threshold used here), a second notification, a small result, and
// a large line that is not JSON, all in one write.
const BURST_SERVER = `
let buf = '';
process.stdin.on('data', (c) => {
  buf += c;
  let nl;
  while ((nl = buf.indexOf('\\n')) !== -1) {
    const req = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    const big = 'x'.repeat(req.params.size);
    process.stdout.write([
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: req.id, progress: 1 } }),
      JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { text: big } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: req.id, progress: 2 } }),
      JSON.stringify({ jsonrpc: '2.0', id: req.id + 1000, result: { text: 'small' } }),
      'not json ' + big,
      '',
    ].join('\\n'));
  }
});
process.stdin.on('end', () => process.exit(0));`;

describe('StdioTransport', () => {
  it('keeps arrival order across off-thread parses of large messages and warns about a large non-JSON line', async () => {
    const warnings: string[] = [];
    const t = new StdioTransport({ command: process.execPath, args: ['-e', BURST_SERVER], env: { ...process.env } as Record<string, string> }, {
      offThreadBytes: 4096,
      onWarning: (w) => warnings.push(w),
    });
    const seen: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    t.onmessage = (m: JSONRPCMessage) => {
      if ('method' in m) seen.push(`progress ${(m.params as { progress: number }).progress}`);
      else if ('result' in m) seen.push(`result ${m.id} ${String((m.result as { text: string }).text.length)}`);
      if ('id' in m && m.id === 1001) done();
    };
    await t.start();
    try {
      await t.send({ jsonrpc: '2.0', id: 1, method: 'big', params: { size: 100_000 } });
      await finished;
      assert.deepEqual(seen, ['progress 1', 'result 1 100000', 'progress 2', 'result 1001 5']);
      await new Promise((r) => setTimeout(r, 200)); // the non-JSON line follows the last result
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /^Ignored a stdout line that is not JSON-RPC: not json xxx/);
    } finally {
      await t.close();
    }
  });

  it('a working folder that does not exist, or a command a variable left empty, is said as such (spawn would blame the command)', async () => {
    const env = { ...process.env } as Record<string, string>;
    const missing = new StdioTransport({ command: process.execPath, args: ['-e', ''], env, cwd: '/no/such/folder/here' });
    await assert.rejects(missing.start(), { message: `Could not start "${process.execPath}": no folder "/no/such/folder/here" (cwd).` });
    const file = new StdioTransport({ command: process.execPath, args: ['-e', ''], env, cwd: process.execPath });
    await assert.rejects(file.start(), /: no folder ".*" \(cwd\)\.$/);
    const empty = new StdioTransport({ command: '', args: [], env });
    await assert.rejects(empty.start(), { message: 'Could not start the server: "command" is empty (an unset variable?).' });
  });

  it('delivers a burst of sends written in one tick, each answered once', async () => {
    const echo = `let b='';process.stdin.on('data',(c)=>{b+=c;let i;while((i=b.indexOf('\\n'))!==-1){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{n:m.params.n}})+'\\n');}});process.stdin.on('end',()=>process.exit(0));`;
    const t = new StdioTransport({ command: process.execPath, args: ['-e', echo], env: { ...process.env } as Record<string, string> });
    const got = new Map<number, number>();
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    t.onmessage = (m: JSONRPCMessage) => {
      if ('result' in m) got.set(Number(m.id), (m.result as { n: number }).n);
      if (got.size === 500) done();
    };
    await t.start();
    try {
      await Promise.all(Array.from({ length: 500 }, (_, n) => t.send({ jsonrpc: '2.0', id: n, method: 'echo', params: { n } })));
      await finished;
      assert.deepEqual([...got].filter(([id, n]) => id !== n), []);
    } finally {
      await t.close();
    }
  });
});
