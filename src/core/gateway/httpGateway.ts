import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createMcpHandler, isLegacyRequest, type McpRequestContext, type Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { sanitizeLine } from '../render/sanitize';
import { gatewayParts, sendListChanged, type ChangedList } from './gatewayParts';
import { gatewayServer } from './gatewayServer';
import type { GatewayDeps, RunningHttpGateway } from './gatewayTypes';
import { checkRequest, FloodLimit, forgetClosedConnections } from './httpGuard';
import { OpenRequests, stoppedBody } from './openRequests';

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
/** How long a stopping gateway waits for its answers to the requests it was serving to be written, before it drops their connections. */
const ANSWER_GRACE_MS = 1_000;

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
  // A request of a session is its session's; one without (a 2026-07-28 request, a 2025 initialize) its
  // connection's: on loopback every client has the same address, and a connection carries one client's requests.
  const flood = new FloodLimit<string | Socket>(options.flood?.burst, options.flood?.perSecond);
  const openRequests = new OpenRequests();
  /** Set once close() was called: from then on every request is answered that the gateway stopped. */
  let closing: Promise<void> | undefined;
  /** The server a 2026-07-28 request is handed to, told to its exchange (the SDK's factory sees the request, not the response). */
  const servedBy = new WeakMap<Request, (server: Server) => void>();
  const onerror = (err: Error) => deps.log?.warn(`gateway: ${sanitizeLine(err.message)}`);
  const parts = gatewayParts(deps, (list) => {
    modern.notify[NOTIFY[list]]();
    for (const s of sessions.values()) sendListChanged(s.server, list);
  });
  const modern = createMcpHandler(
    (ctx: McpRequestContext) => {
      const server = gatewayServer({ deps, ...parts });
      if (ctx.requestInfo) servedBy.get(ctx.requestInfo)?.(server);
      return server;
    },
    { legacy: 'reject', onerror, maxRequestBodySize: MAX_BODY_BYTES },
  );
  const listener = http.createServer((req, res) => {
    void serve(req, res).catch((err: unknown) => {
      onerror(err instanceof Error ? err : new Error(String(err)));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  forgetClosedConnections(listener, flood);
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
    if (closing) return stopped(res, undefined);
    if (!flood.take(sessionId ?? req.socket)) return refuse(res, 429, 'Too many requests: this client is over the gateway\'s request rate; slow down.', { 'retry-after': '1' });
    const body = req.method === 'POST' ? await readBody(req, res) : undefined;
    if (body === null) return;
    const legacy = !session && req.method === 'POST' && (await isLegacyRequest(await toWebRequest(req, body), body));
    // Stopped while the body came: answered here, as the stop answers every request it finds open.
    if (closing) return stopped(res, body);
    if (session) return sessionRequest(session, req, res, body);
    if (req.method !== 'POST') return refuse(res, 405, 'Method not allowed without a session.');
    if (legacy) {
      if (sessions.size >= MAX_SESSIONS && !forgetIdlest()) return refuse(res, 503, `Too many sessions: all ${MAX_SESSIONS} have a request or stream open; close one and try again.`);
      return sessionRequest(newSession(), req, res, body);
    }
    return modernRequest(req, res, body);
  }

  function sessionRequest(session: Session, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    opened(session, res);
    openRequests.track(res, body, () => session.transport);
    return session.transport.handleRequest(req, res, body);
  }

  /**
   * A 2026-07-28 request: its own server instance, which the SDK makes and closes. Should the gateway
   * stop before that server holds the request (or after it, closing it unanswered: the SDK's 499),
   * the answer says so instead.
   */
  function modernRequest(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    let server: Server | undefined;
    openRequests.track(res, body, () => server?.transport);
    const answerStopped = () => new Response(stoppedBody(body), { headers: { 'content-type': 'application/json' } });
    return toNodeHandler({
      fetch: async (request: Request, options?: Parameters<typeof modern.fetch>[1]) => {
        if (closing) return answerStopped();
        servedBy.set(request, (s) => (server = s));
        const response = await modern.fetch(request, options);
        return closing && response.status === CLOSED_UNANSWERED ? answerStopped() : response;
      },
    })(req, res, body);
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

  /**
   * Stops: a request still open gets a JSON-RPC error that says the gateway stopped, through its own
   * transport (an SSE event or a JSON body, as its era expects), then the servers close (which cancels
   * their calls to the backends), then the connections.
   */
  async function stop(): Promise<void> {
    parts.dispose();
    const listening = new Promise<void>((resolve) => listener.close(() => resolve()));
    openRequests.answerAll();
    await openRequests.ended(ANSWER_GRACE_MS);
    for (const id of [...sessions.keys()]) forget(id);
    await modern.close().catch(() => undefined);
    // A 2026-07-28 request its server did not yet hold was answered as its server closed (modernRequest).
    await openRequests.ended(ANSWER_GRACE_MS);
    listener.closeAllConnections();
    await listening;
  }

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    get clients() {
      return sessions.size;
    },
    close: () => (closing ??= stop()),
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The SDK's status for a 2026-07-28 request whose server closed before it answered (createMcpHandler). */
const CLOSED_UNANSWERED = 499;

/** A request that came as the gateway stopped: 503, its JSON-RPC error saying so. */
function stopped(res: http.ServerResponse, body: unknown): void {
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end(stoppedBody(body));
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
