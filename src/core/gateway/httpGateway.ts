import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { sanitizeLine } from '../render/sanitize';
import { gatewayParts, sendListChanged, type ChangedList } from './gatewayParts';
import { gatewayServer } from './gatewayServer';
import type { GatewayDeps, RunningHttpGateway } from './gatewayTypes';
import { checkRequest, FloodLimit } from './httpGuard';

/** A request body larger than this is refused (413) before it is parsed. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The per-request (2026-07-28) handler's notice for each list. */
const NOTIFY = { tools: 'toolsChanged', resources: 'resourcesChanged', prompts: 'promptsChanged' } as const satisfies Record<ChangedList, string>;
/**
 * Sessions (2025-era clients) kept at once. A client may go without ending its session (the SDK's
 * close() sends no DELETE): at the cap, the session idle the longest (no request or stream open)
 * makes room, and its client, if it ever comes back, is told to initialize again (404).
 */
export const MAX_SESSIONS = 64;

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: ReturnType<typeof gatewayServer>;
  /** Requests of the session whose response is still open (a call, a GET stream). */
  open: number;
  /** When its last open request ended (`performance.now()` ms). */
  idleSince: number;
}

/**
 * The gateway over Streamable HTTP on 127.0.0.1 (never another interface), for clients that
 * connect by URL. Each request passes httpGuard first (Host, Origin, token), then a per-client
 * flood limit and a body size cap. 2025-era clients get a session (so list_changed and
 * elicitation reach them); 2026-07-28 clients are served per request.
 */
export async function startHttpGateway(deps: GatewayDeps, options: { port?: number; flood?: { readonly burst: number; readonly perSecond: number } } = {}): Promise<RunningHttpGateway> {
  const token = randomBytes(32).toString('base64url');
  const sessions = new Map<string, Session>();
  const flood = new FloodLimit(options.flood?.burst, options.flood?.perSecond);
  const onerror = (err: Error) => deps.log?.warn(`gateway: ${sanitizeLine(err.message)}`);
  const parts = gatewayParts(deps, (list) => {
    modern.notify[NOTIFY[list]]();
    for (const s of sessions.values()) sendListChanged(s.server, list);
  });
  const modern = createMcpHandler(() => gatewayServer({ deps, ...parts }), { legacy: 'reject', onerror, maxRequestBodySize: MAX_BODY_BYTES });
  const modernNode = toNodeHandler(modern);
  const listener = http.createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => {
      onerror(err instanceof Error ? err : new Error(String(err)));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (listener.address() as AddressInfo).port;

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refusal = checkRequest(req, port, token);
    if (refusal) return refuse(res, refusal.status, refusal.message);
    const sessionId = header(req, 'mcp-session-id');
    const session = sessionId !== undefined ? sessions.get(sessionId) : undefined;
    // An unknown session is refused before it gets a flood budget: made-up ids must not grow the budgets kept.
    if (sessionId !== undefined && !session) return refuse(res, 404, 'Session not found: initialize again.');
    if (!flood.take(sessionId ?? 'no-session')) return refuse(res, 429, 'Too many requests: this client is over the gateway\'s request rate; slow down.', { 'retry-after': '1' });
    const body = req.method === 'POST' ? await readBody(req, res) : undefined;
    if (body === null) return;
    if (session) {
      opened(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return refuse(res, 405, 'Method not allowed without a session.');
    if (await isLegacyRequest(await toWebRequest(req, body), body)) {
      if (sessions.size >= MAX_SESSIONS && !forgetIdlest()) return refuse(res, 503, `Too many sessions: all ${MAX_SESSIONS} have a request or stream open; close one and try again.`);
      const session = newSession();
      opened(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    return modernNode(req, res, body);
  }

  function newSession(): Session {
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void forget(id),
    });
    const server = gatewayServer({ deps, ...parts, client: randomUUID() });
    const session: Session = { transport, server, open: 0, idleSince: performance.now() };
    transport.onclose = () => transport.sessionId !== undefined && forget(transport.sessionId);
    void server.connect(transport).catch(onerror);
    return session;
  }

  /** A request of `session` is open until its response ends (or its client goes). */
  function opened(session: Session, res: http.ServerResponse): void {
    session.open++;
    res.once('close', () => {
      session.open--;
      session.idleSince = performance.now();
    });
  }

  /** Ends the session idle the longest, to make room for a new one; false when every session is busy. */
  function forgetIdlest(): boolean {
    let idlest: [string, Session] | undefined;
    for (const entry of sessions) if (entry[1].open === 0 && (!idlest || entry[1].idleSince < idlest[1].idleSince)) idlest = entry;
    if (!idlest) return false;
    forget(idlest[0]);
    return true;
  }

  function forget(id: string): void {
    const session = sessions.get(id);
    sessions.delete(id);
    flood.forget(id);
    void session?.server.close().catch(() => undefined);
  }

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    get clients() {
      return sessions.size;
    },
    close: () =>
      (closing ??= (async () => {
        parts.dispose();
        for (const id of [...sessions.keys()]) forget(id);
        await modern.close().catch(() => undefined);
        listener.closeAllConnections();
        await new Promise<void>((resolve) => listener.close(() => resolve()));
      })()),
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** JSON-RPC's code for a body that is not JSON; every other refusal is the server error range's first (-32000), as the SDK's transport answers. */
const PARSE_ERROR = -32700;

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** The body as JSON, at most MAX_BODY_BYTES; null when it was refused (413, or 400 for JSON that does not parse). */
async function readBody(req: http.IncomingMessage, res: http.ServerResponse): Promise<unknown> {
  const declared = Number(header(req, 'content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    refuse(res, 413, `Request too large: at most ${MAX_BODY_BYTES} bytes.`);
    req.resume();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refuse(res, 413, `Request too large: at most ${MAX_BODY_BYTES} bytes.`);
      req.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    refuse(res, 400, 'Parse error: the body is not JSON.', {}, PARSE_ERROR);
    return null;
  }
}
