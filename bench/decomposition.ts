// Where the time goes, beside the goals: our transport under a minimal JSON-RPC dispatcher (no
// SDK), and the SDK Client's own CPU per request with no I/O at all. These split the gap between
// "ours" and "raw" into the transport's share and the SDK's.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioTransport } from '../src/core/transport/stdioTransport';
import { SchemaValidator } from '../src/core/tools/schemaValidator';
import { SdkClient } from '../src/core/connection/sdkClient';
import { PromptGate } from '../src/core/connection/promptGate';
import { ECHO_SERVER } from './harness';

/** Our StdioTransport with an id -> promise map and nothing else: the transport's cost alone. */
export class MinimalClient {
  private readonly _pending = new Map<number, (result: unknown) => void>();
  private _nextId = 0;

  private constructor(private readonly _transport: StdioTransport) {
    _transport.onmessage = (message: JSONRPCMessage) => {
      if (!('id' in message) || !('result' in message)) return;
      const resolve = this._pending.get(Number(message.id));
      this._pending.delete(Number(message.id));
      resolve?.(message.result);
    };
  }

  static async start(env: Record<string, string> = {}): Promise<MinimalClient> {
    const transport = new StdioTransport({ command: process.execPath, args: [ECHO_SERVER], env: { ...(process.env as Record<string, string>), ...env } });
    await transport.start();
    const client = new MinimalClient(transport);
    await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'minimal', version: '0' } });
    return client;
  }

  request(method: string, params?: unknown): Promise<unknown> {
    const id = this._nextId++;
    return new Promise((resolve) => {
      this._pending.set(id, resolve);
      void this._transport.send({ jsonrpc: '2.0', id, method, params: params as Record<string, unknown> });
    });
  }

  close(): Promise<void> {
    return this._transport.close();
  }
}

/** A transport that answers in-process on the next macrotask, as the raw echo server would. */
class LoopbackTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** `toolsJson`: the `tools/list` result, serialized once (as the raw server does). */
  constructor(private readonly _toolsJson = '{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}') {}

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('method' in message)) return;
    const params = (message.params ?? {}) as { protocolVersion?: string; arguments?: { text?: string } };
    const result =
      message.method === 'initialize' ? JSON.stringify({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'loopback', version: '0' } })
      : message.method === 'tools/list' ? this._toolsJson
      : JSON.stringify({ content: [{ type: 'text', text: params.arguments?.text ?? 'ok' }] });
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
    setImmediate(() => this.onmessage?.(JSON.parse(line) as JSONRPCMessage));
  }
}

/**
 * CPU per `tools/call` in microseconds, 64 in flight, with no process and no pipe: the SDK
 * Client's `callTool` against the same loopback with a bare id map, so the difference is what
 * the SDK spends per call (result validation with zod, its response-cache probe, timers).
 */
export async function sdkCpuPerCall(calls: number): Promise<{ sdkUs: number; oursUs: number; bareUs: number }> {
  const transport = new LoopbackTransport();
  const client = new Client({ name: 'bench', version: '0' }, { capabilities: {}, jsonSchemaValidator: new SchemaValidator() });
  await client.connect(transport);
  await client.listTools();
  const cpu = async (call: () => Promise<unknown>) => {
    let left = calls;
    const start = process.cpuUsage();
    await Promise.all(Array.from({ length: 64 }, async () => {
      while (left-- > 0) await call();
    }));
    const used = process.cpuUsage(start);
    return (used.user + used.system) / calls;
  };
  const sdkUs = await cpu(() => client.callTool({ name: 'echo', arguments: { text: 'hi' } }, { timeout: 600_000, resetTimeoutOnProgress: true, maxTotalTimeout: 600_000 }));
  // Ours: the SdkClient's call path past the SDK's Client (RawRequests), as every 2025-era tools/call goes.
  const prompts = new PromptGate(() => undefined);
  const ours = new SdkClient({ clientVersion: 'bench', validator: new SchemaValidator(), log: { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined }, onToolsChanged: () => undefined, prompts });
  await ours.connect(new LoopbackTransport(), 'stdio', { handshakeMs: 30_000, remembered: 'legacy' });
  const echo = { name: 'echo', inputSchema: { type: 'object' as const } };
  const inFlight = prompts.begin('echo');
  const oursUs = await cpu(() => ours.callTool(echo, { text: 'hi' }, { timeoutMs: 600_000, maxTotalTimeoutMs: 600_000 }, inFlight));
  await ours.close();
  const pending = new Map<number, () => void>();
  let id = 1_000_000;
  transport.onmessage = (m) => {
    if ('id' in m) pending.get(Number(m.id))?.();
  };
  const bareUs = await cpu(() => new Promise<void>((resolve) => {
    const n = id++;
    pending.set(n, () => (pending.delete(n), resolve()));
    void transport.send({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
  }));
  await client.close();
  return { sdkUs, oursUs, bareUs };
}

/** The tools of the raw echo server (../shared/reference), built the same way. */
export function rawServerToolsJson(count: number, outputSchema: boolean): string {
  const tools = Array.from({ length: count }, (_, i) => ({
    name: i === 0 ? 'echo' : `tool_${i}`,
    description: `Synthetic tool number ${i} used for tools/list benchmarking.`,
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'text' }, count: { type: 'integer', minimum: 0 }, mode: { type: 'string', enum: ['a', 'b', 'c'] } }, required: ['text'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' },
    annotations: { readOnlyHint: true },
    ...(outputSchema && i > 0 ? { outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id', 'score'], additionalProperties: false } } }, required: ['ok', 'items'], additionalProperties: false } } : {}),
  }));
  return JSON.stringify({ tools });
}

/**
 * Milliseconds for the SDK Client's `listTools()` over the in-process loopback (result
 * validation with zod, its response cache) against parsing the same message alone.
 */
export async function sdkListCost(toolsJson: string, rounds: number): Promise<{ sdkMs: number; parseMs: number }> {
  const transport = new LoopbackTransport(toolsJson);
  const client = new Client({ name: 'bench', version: '0' }, { capabilities: {}, jsonSchemaValidator: new SchemaValidator() });
  await client.connect(transport);
  const line = `{"jsonrpc":"2.0","id":1,"result":${toolsJson}}`;
  const sdk: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    await client.listTools(undefined, { cacheMode: 'refresh' });
    sdk.push(performance.now() - t);
    t = performance.now();
    JSON.parse(line);
    parse.push(performance.now() - t);
  }
  await client.close();
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { sdkMs: mid(sdk), parseMs: mid(parse) };
}
