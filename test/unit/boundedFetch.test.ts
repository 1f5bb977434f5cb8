import * as assert from 'node:assert/strict';
import { boundedFetch } from '../../src/core/transport/boundedFetch';

/** A fetch answering with these chunks, and how many of them were read. */
function serving(contentType: string, chunks: readonly string[]) {
  const served = { chunks: 0 };
  const inner = (async () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i === chunks.length) return controller.close();
        served.chunks++;
        controller.enqueue(new TextEncoder().encode(chunks[i++]));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType, 'content-length': '999' } });
  }) as typeof fetch;
  return { inner, served };
}

describe('boundedFetch: what one message of a remote server may bring', () => {
  it("an event stream without a request (the server's own stream): an event over the limit is dropped as it streams, the events around it arrive; CRLF ends events too", async () => {
    const dropped: string[] = [];
    const big = 'x'.repeat(1000);
    const { inner } = serving('text/event-stream', ['data: {"jsonrpc":"2.0","method":"a"}\r\n\r\n', 'data: {"jsonrpc":"2.0","method":"b","params":"', big, big, '"}\n\n', 'data: {"jsonrpc":"2.0","id":7,"result":{"t":"', big, big, '"}}\n\n', 'data: {"jsonrpc":"2.0","method":"c"}\n\n']);
    const response = await boundedFetch(inner, 1500, (s) => dropped.push(s))('http://x/mcp', { method: 'GET' });
    const text = await response.text();
    assert.equal(response.headers.get('content-length'), null);
    // Read as an SSE parser reads it: CR, LF and CRLF each end a line.
    assert.deepEqual(text.replace(/\r\n?/g, '\n').split('\n\n').filter(Boolean), [
      'data: {"jsonrpc":"2.0","method":"a"}',
      `event: message\ndata: {"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"${dropped[1]}"}}`,
      'data: {"jsonrpc":"2.0","method":"c"}',
    ]);
    assert.equal(dropped.length, 2);
    assert.match(dropped[0], /^A message of more than 0\.0 MiB exceeded the 0\.0 MiB limit and was dropped \(raise the setting mcpToolHost\.maxMessageSize to accept it\)\.$/);
  });

  it('a JSON answer over the limit becomes the error of the request it answers, and the rest is never read', async () => {
    const dropped: string[] = [];
    const { inner, served } = serving('application/json', ['{"jsonrpc":"2.0","id":3,"result":{"t":"', ...Array.from({ length: 1000 }, () => 'x'.repeat(1000))]);
    const response = await boundedFetch(inner, 10_000, (s) => dropped.push(s))('http://x/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call' }) });
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 3, error: { code: -32000, message: dropped[0] } });
    assert.ok(served.chunks < 20, `${served.chunks} chunks were read`);
  });

  it('a JSON answer under the limit arrives whole', async () => {
    const { inner } = serving('application/json', ['{"jsonrpc":"2.0",', '"id":3,"result":{}}']);
    const response = await boundedFetch(inner, 10_000, () => assert.fail('nothing dropped'))('http://x/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":3,"method":"ping"}' });
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 3, result: {} });
  });
});
