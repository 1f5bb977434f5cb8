import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Server as NetServer, Socket } from 'node:net';

/** Why a request is refused before any MCP handling: the status and a short sentence. */
export interface Refusal {
  readonly status: 401 | 403 | 404;
  readonly message: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compares in constant time (digests have the same length whatever was sent). */
const sameSecret = (given: string, token: string) => timingSafeEqual(digest(given), digest(token));

/**
 * Whether a request may reach the gateway, checked in this order: the Host header is this
 * listener's own loopback name and port (a page that rebinds its DNS name to 127.0.0.1 sends its
 * own name), an Origin, when a browser sends one, is this listener's, and the token is given (as
 * `Authorization: Bearer`, or as the first path segment, `/<token>/mcp`). The path left is `/mcp`.
 */
export function checkRequest(req: IncomingMessage, port: number, token: string): Refusal | undefined {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!hosts.includes((req.headers.host ?? '').toLowerCase())) return { status: 403, message: 'Forbidden: the Host header is not this gateway\'s (127.0.0.1 or localhost with its port).' };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return { status: 403, message: 'Forbidden: requests from another origin are refused.' };
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const inPath = segments.length === 2 && segments[1] === 'mcp' ? segments[0] : undefined;
  const given = bearer ?? inPath;
  if (given === undefined || !sameSecret(given, token)) return { status: 401, message: 'Unauthorized: the gateway\'s token is missing or wrong.' };
  const path = bearer !== undefined ? segments : segments.slice(1);
  if (path.length !== 1 || path[0] !== 'mcp') return { status: 404, message: 'Not found: the gateway answers at /mcp.' };
  return undefined;
}

/**
 * Budgets kept at once. Each is dropped when its client goes (its session ends, its connection
 * closes); past this many (a flood of connections held open), the oldest makes room: it loses only
 * its spent budget, so memory stays bounded whatever a client opens.
 */
export const MAX_FLOOD_CLIENTS = 4096;

/**
 * A client's budget of requests: `burst` at once, refilled at `perSecond`. A client past it is
 * answered 429 and nothing of its request runs; the others are not slowed. Who a client is, is the
 * caller's: the gateway keys a request by its MCP session, and one without (a 2026-07-28 request, a
 * 2025 initialize) by its TCP connection.
 */
export class FloodLimit<K = string> {
  private readonly _buckets = new Map<K, { tokens: number; at: number }>();

  constructor(
    private readonly _burst = 200,
    private readonly _perSecond = 100,
    private readonly _maxClients = MAX_FLOOD_CLIENTS,
  ) {}

  /** Budgets kept now (at most the cap). */
  get size(): number {
    return this._buckets.size;
  }

  take(client: K, now = performance.now()): boolean {
    let bucket = this._buckets.get(client);
    if (!bucket) {
      if (this._buckets.size >= this._maxClients) this._buckets.delete(this._buckets.keys().next().value as K);
      bucket = { tokens: this._burst, at: now };
      this._buckets.set(client, bucket);
    }
    bucket.tokens = Math.min(this._burst, bucket.tokens + ((now - bucket.at) / 1000) * this._perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  forget(client: K): void {
    this._buckets.delete(client);
  }
}

/**
 * Drops the budget of each connection of `listener` as it closes, so a client that opens a new
 * connection for every request leaves nothing behind.
 */
export function forgetClosedConnections(listener: NetServer, flood: FloodLimit<string | Socket>): void {
  listener.on('connection', (socket: Socket) => socket.once('close', () => flood.forget(socket)));
}
