import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * How long a stdio server that is up (it wrote something, on stdout or stderr: a message, a line
 * of text, any bytes) may leave the
 * 2026-07-28 probe unanswered before it counts as a 2025-era server that ignores requests it does
 * not know. Timed from its first output, not from its start: a 2025-era server refuses the probe
 * as soon as it reads it, and a slow start (npx, a big index) says nothing of its era.
 */
export const PROBE_GRACE_MS = 2_000;
/** How long the probe waits, from the start, for a stdio server that writes nothing at all. */
export const PROBE_LIMIT_MS = 10_000;

/**
 * The timing of a stdio server's probe: the grace after its first output (none for a server that
 * answered the probe at an earlier start: it is given the whole limit), and the limit, which leaves
 * `initialize` at least half of the handshake's time.
 */
export function stdioProbeTiming(handshakeMs: number, answeredBefore: boolean): ProbeTiming {
  return { ...(!answeredBefore && { graceMs: PROBE_GRACE_MS }), limitMs: Math.min(PROBE_LIMIT_MS, Math.floor(handshakeMs / 2)) };
}

/** The protocol revision whose probe this is. */
const MODERN_VERSION = '2026-07-28';
/** A refusal that names the versions the server speaks: not a sign of the 2025 era. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** How a probe is timed: `graceMs` after the server's first output, `limitMs` after it was sent; undefined: not by us. */
export interface ProbeTiming {
  readonly graceMs?: number;
  readonly limitMs?: number;
}

/**
 * Watches the SDK's 2026-07-28 probe (`server/discover`) on a session's transport and times it:
 * once the server wrote something the grace clock runs, and a stdio server that writes nothing
 * has the limit. When either runs out the probe is given up for this start: the SDK gets a
 * stand-in refusal (it has no way to be told otherwise) and goes on with `initialize`. An era
 * chosen that way, or by the SDK giving up on its own, is a guess, never remembered (`timedOut`).
 *
 * The server's late answer to a probe given up comes anyway (nothing cancels a request before
 * `initialize`): it is dropped, not handed to the SDK (which would log it as an answer to an
 * unknown id), and says what the server speaks after all (`lateEra`). Probe ids are strings, the
 * SDK's own requests' are numbers.
 */
export class ProbeWatch {
  private readonly _waiting = new Set<string | number>();
  private readonly _abandoned = new Set<string | number>();
  private _alive = false;
  private _grace: NodeJS.Timeout | undefined;
  private _limit: NodeJS.Timeout | undefined;
  private _timedOut = false;
  private _probed = false;
  private _answered = false;
  private _lateEra: 'modern' | 'legacy' | undefined;
  private _deliver: ((message: JSONRPCMessage) => void) | undefined;

  constructor(private readonly _timing: ProbeTiming = {}) {}

  /** Where the stand-in refusal goes: the SDK's handler of the server's messages. */
  deliverTo(deliver: (message: JSONRPCMessage) => void): void {
    this._deliver = deliver;
  }

  /** Sees each message the SDK sends. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message && message.method === 'server/discover') {
      this._probed = true;
      this._waiting.add(message.id);
      const limitMs = this._timing.limitMs;
      if (limitMs !== undefined && !this._limit) this._limit = setTimeout(() => this._expire(), limitMs);
      return this._armGrace();
    }
    // The SDK sends nothing else while it waits for the probe: anything else means it stopped waiting.
    this._giveUp();
  }

  /** Sees each message of the server's; true when it is a late answer to a probe given up (dropped). */
  take(message: JSONRPCMessage): boolean {
    this.alive();
    const id = 'method' in message || !('id' in message) ? undefined : message.id;
    if (id === undefined || id === null) return false;
    if (this._waiting.delete(id)) {
      this._answered = true;
      if (this._waiting.size === 0) this._stopClocks();
      return false;
    }
    if (!this._abandoned.delete(id)) return false;
    this._lateEra = lateEra(message) ?? this._lateEra;
    return true;
  }

  /** The server wrote something (a message, a line on stderr): it is up, and the grace clock runs. */
  alive(): void {
    if (this._alive) return;
    this._alive = true;
    this._armGrace();
  }

  /** The SDK gave up on the probe before the server answered it: the era of this start was a guess. */
  get timedOut(): boolean {
    return this._timedOut;
  }

  /** The probe was sent, and neither answered nor given up: what a server that exits on it leaves. */
  get unanswered(): boolean {
    return this._probed && !this._answered && !this._timedOut;
  }

  /** What the server's answer to a probe given up says it speaks; undefined: no answer (yet), or not a sign. */
  get lateEra(): 'modern' | 'legacy' | undefined {
    return this._lateEra;
  }

  /** The session ended: no clock may fire into it. */
  dispose(): void {
    this._stopClocks();
    this._waiting.clear();
  }

  private _armGrace(): void {
    const graceMs = this._timing.graceMs;
    if (graceMs === undefined || !this._alive || this._grace || this._waiting.size === 0) return;
    this._grace = setTimeout(() => this._expire(), graceMs);
  }

  private _expire(): void {
    const ids = [...this._waiting];
    this._giveUp();
    for (const id of ids) this._deliver?.({ jsonrpc: '2.0', id, error: { code: -32601, message: 'The server did not answer server/discover in time.' } });
  }

  private _giveUp(): void {
    if (this._waiting.size > 0) this._timedOut = true;
    for (const id of this._waiting) this._abandoned.add(id);
    this._waiting.clear();
    this._stopClocks();
  }

  private _stopClocks(): void {
    clearTimeout(this._grace);
    clearTimeout(this._limit);
    this._grace = this._limit = undefined;
  }
}

/** The era a late answer to the probe shows: a discover result that offers 2026-07-28, or a refusal (as the SDK reads one in time). */
function lateEra(message: JSONRPCMessage): 'modern' | 'legacy' | undefined {
  if ('result' in message) {
    const result: unknown = message.result;
    const versions = typeof result === 'object' && result !== null ? (result as { supportedVersions?: unknown }).supportedVersions : undefined;
    return Array.isArray(versions) && versions.includes(MODERN_VERSION) ? 'modern' : undefined;
  }
  if ('error' in message) return message.error.code === UNSUPPORTED_PROTOCOL_VERSION ? undefined : 'legacy';
  return undefined;
}
