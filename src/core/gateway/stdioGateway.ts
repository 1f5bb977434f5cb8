import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { Server } from '@modelcontextprotocol/server';
import type { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { sanitizeLine } from '../render/sanitize';
import { gatewayParts, sendListChanged } from './gatewayParts';
import { gatewayInstance } from './gatewayServer';
import type { GatewayDeps, RunningStdioGateway } from './gatewayTypes';
import { GatewayWire } from './gatewayWire';
import { RawToolCalls, type RawInstance } from './rawToolCalls';
import { turnWrites } from '../transport/turnWrites';

/**
 * The gateway over one stdio connection (`mcp-tool-host serve`): nothing but MCP on `output`.
 * Either protocol era; the client's tools/list_changed follows the servers' own. A 2025-era
 * client's tools/call is answered past the SDK's server (rawToolCalls.ts), by the same handler.
 */
export async function serveStdio(deps: GatewayDeps, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<RunningStdioGateway> {
  const live = new Set<Server>();
  const parts = gatewayParts(deps, (list) => {
    for (const server of live) sendListChanged(server, list);
  });
  // One connection, one client: the results kept for its model are its own.
  const client = randomUUID();
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const wire = new GatewayWire(input, coalesced(output));
  // The instance of a 2025-era connection once the client initialized it (the era is the connection's on stdio).
  let legacy: RawInstance | undefined;
  const raw = new RawToolCalls(wire, () => (legacy?.server.getClientCapabilities() !== undefined && live.has(legacy.server) ? legacy : undefined));
  wire.take = raw.take;
  wire.watch = raw.watch;
  const handle = sdkServeStdio(
    ({ era }) => {
      const instance = gatewayInstance({ deps, ...parts, client });
      const { server } = instance;
      live.add(server);
      if (era === 'legacy') legacy = instance;
      const closed = server.onclose;
      server.onclose = () => {
        closed?.();
        live.delete(server);
        if (legacy === instance) {
          legacy = undefined;
          raw.closeAll();
        }
      };
      return server;
    },
    { transport: wire, onerror: (err) => deps.log?.warn(`gateway: ${sanitizeLine(err.message)}`) },
  );
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      parts.dispose();
      await handle.close().catch(() => undefined);
      ended();
    })());
  input.once('end', () => void close());
  input.once('close', () => void close());
  return { closed, close };
}

/**
 * `output` with a turn's answers in two writes at most (TurnWrites): the SDK's transport writes
 * each message on its own, and over a pipe each write is a system call (64 calls in flight
 * answered together: two, not 64). Everything else is the stream itself.
 */
function coalesced(output: NodeJS.WritableStream): NodeJS.WritableStream {
  const stream = output as NodeJS.WritableStream & Partial<Pick<Writable, 'cork' | 'uncork'>>;
  if (typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return output;
  // GatewayWire writes whole lines, text only.
  const write = turnWrites(stream as Pick<Writable, 'write' | 'cork' | 'uncork'>);
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
