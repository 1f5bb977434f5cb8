/** Calls per server: a burst, refilled at a steady rate (defaults: burst 20, 10 calls/s; settings mcpToolHost.rateLimit.*). */
export interface RateLimit {
  readonly burst: number;
  readonly perSecond: number;
}

export const DEFAULT_RATE_LIMIT: RateLimit = { burst: 20, perSecond: 10 };

/**
 * A token bucket per server, so a runaway loop (a model calling a tool in a tight loop, a
 * script) cannot hammer a server. `take()` answers at once: over the limit, the call is refused
 * and nothing is sent.
 */
export class RateLimiter {
  private readonly _buckets = new Map<string, { tokens: number; at: number }>();

  /** `setBy`: where the user sets the limit, as a refused call names it. */
  constructor(
    private readonly _limit: () => RateLimit = () => DEFAULT_RATE_LIMIT,
    private readonly _now: () => number = () => performance.now(),
    readonly setBy = 'settings mcpToolHost.rateLimit.*',
  ) {}

  /** Takes one call's token; returns how long until one is free when there is none. */
  take(server: string): { ok: true } | { ok: false; retryInMs: number } {
    const { burst, perSecond } = this._limit();
    const now = this._now();
    const bucket = this._buckets.get(server) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this._buckets.set(server, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryInMs: Math.ceil(((1 - bucket.tokens) / perSecond) * 1000) };
  }
}
