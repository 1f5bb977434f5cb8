/** Waits before each automatic restart after a crash (1, 2, 4, 8, 16 s, then it gives up with the reason). */
export const RESTART_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
/** Crashes older than this are forgotten. */
export const CRASH_WINDOW_MS = 3 * 60_000;

export type RestartDecision = { readonly kind: 'retry'; readonly delayMs: number; readonly attempt: number } | { readonly kind: 'give-up'; readonly crashes: number };

/**
 * Decides what follows a crash: the next restart and its delay, or giving up once every
 * delay was used within the window (a restart storm helps nobody). Keeps `crashes` pruned.
 */
export class RestartPolicy {
  private _crashes: number[] = [];

  constructor(private readonly _delays: readonly number[] = RESTART_DELAYS_MS, private readonly _windowMs = CRASH_WINDOW_MS) {}

  onCrash(now = Date.now()): RestartDecision {
    this._crashes = this._crashes.filter((t) => now - t < this._windowMs);
    this._crashes.push(now);
    const n = this._crashes.length;
    return n <= this._delays.length ? { kind: 'retry', delayMs: this._delays[n - 1], attempt: n } : { kind: 'give-up', crashes: n };
  }

  /** A start the user asked for begins a fresh count. */
  reset(): void {
    this._crashes = [];
  }
}
