import { strict as assert } from 'node:assert';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { keepRawAnswers, type RawProgress } from '../../src/core/connection/rawAnswers';
import { ProbeWatch } from '../../src/core/connection/eraProbe';
import { rawCall, type EraSession } from '../../src/core/connection/eraClient';
import type { CallInFlight } from '../../src/core/connection/promptGate';

/** A transport that keeps what is sent and lets the test play the server. */
function fakeTransport(): { transport: Transport; sent: JSONRPCMessage[]; fromServer(message: JSONRPCMessage): void; sdkSaw: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const sdkSaw: JSONRPCMessage[] = [];
  const transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => void sent.push(message),
  } as unknown as Transport;
  const raw = keepRawAnswers(transport, new ProbeWatch());
  transport.onmessage = (message) => void sdkSaw.push(message);
  return { transport: Object.assign(transport, { raw }), sent, sdkSaw, fromServer: (message) => transport.onmessage?.(message) };
}

const progressOn = (token: unknown, progress: number, message?: string): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress, total: 3, ...(message !== undefined && { message }) } });

describe("raw requests' progress on their own id", () => {
  it('a request that wants progress carries its id as the token, keeps the rest of its _meta, and hears only its own progress', async () => {
    const t = fakeTransport();
    const raw = (t.transport as unknown as { raw: ReturnType<typeof keepRawAnswers> }).raw;
    const envelope = Object.freeze({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    const session = { raw } as unknown as EraSession;
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
    const inFlight = { answering: 0, onAnswering: undefined } as unknown as CallInFlight;
    const heard: { call: string; p: RawProgress }[] = [];
    // An era's envelope and a trace's parent in _meta, as a 2026-07-28 call with telemetry sends them.
    const first = rawCall(session, tool('a'), {}, { timeoutMs: 60_000, maxTotalTimeoutMs: 60_000, meta: { traceparent: '00-1-2-01' }, onprogress: (p) => heard.push({ call: 'first', p }) }, inFlight, { meta: envelope });
    const second = rawCall(session, tool('b'), {}, { timeoutMs: 60_000, maxTotalTimeoutMs: 60_000, onprogress: (p) => heard.push({ call: 'second', p }) }, inFlight);
    const plain = rawCall(session, tool('c'), {}, { timeoutMs: 60_000, maxTotalTimeoutMs: 60_000 }, inFlight);
    await Promise.resolve();
    const [a, b, c] = t.sent as { id: string; params: { _meta?: Record<string, unknown> } }[];
    assert.equal(a.params._meta?.progressToken, a.id);
    assert.deepEqual(a.params._meta, { traceparent: '00-1-2-01', 'io.modelcontextprotocol/protocolVersion': '2026-07-28', progressToken: a.id });
    assert.equal(b.params._meta?.progressToken, b.id);
    assert.notEqual(a.id, b.id);
    assert.equal(c.params._meta, undefined, 'a request that wants no progress asks for none');

    t.fromServer(progressOn(b.id, 1, 'step one'));
    t.fromServer(progressOn(a.id, 2));
    assert.deepEqual(heard, [
      { call: 'second', p: { progress: 1, total: 3, message: 'step one' } },
      { call: 'first', p: { progress: 2, total: 3 } },
    ]);

    // Answered: progress on its id afterwards is dropped, never handed to the SDK (which knows no such token).
    t.fromServer({ jsonrpc: '2.0', id: a.id, result: { content: [] } });
    assert.deepEqual(await first, { content: [] });
    t.fromServer(progressOn(a.id, 3));
    assert.equal(heard.length, 2);
    assert.deepEqual(t.sdkSaw, []);

    // A token of the SDK's own (a number) is the SDK's.
    t.fromServer(progressOn(7, 1));
    assert.equal(t.sdkSaw.length, 1);

    t.fromServer({ jsonrpc: '2.0', id: b.id, result: { content: [] } });
    t.fromServer({ jsonrpc: '2.0', id: c.id, result: { content: [] } });
    await Promise.all([second, plain]);
  });

  it('attacker: progress without a number, or on a token the server made up in our form, reaches nobody', async () => {
    const t = fakeTransport();
    const raw = (t.transport as unknown as { raw: ReturnType<typeof keepRawAnswers> }).raw;
    const heard: RawProgress[] = [];
    const call = raw.request('tools/call', (id) => ({ name: 'a', arguments: {}, _meta: { progressToken: id } }), { timeoutMs: 60_000, onProgress: (p) => heard.push(p) });
    await Promise.resolve();
    const id = (t.sent[0] as { id: string }).id;
    t.fromServer({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 'lots' } });
    t.fromServer(progressOn('mcp-tool-host-raw-999', 1));
    assert.deepEqual(heard, []);
    assert.deepEqual(t.sdkSaw, []);
    t.fromServer({ jsonrpc: '2.0', id, result: { content: [] } });
    await call;
  });
});
