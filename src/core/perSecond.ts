/**
 * A budget of `limit` a second, for what a server may flood (progress, log messages): the first
 * `limit` of each second pass, the rest wait or are counted by the caller.
 */
export class PerSecondBudget {
  // -Infinity, not 0: performance.now() counts from the process start, and a young process (the CLI) is under 1000.
  private _windowStart = Number.NEGATIVE_INFINITY;
  private _used = 0;

  constructor(readonly limit: number, private readonly _now: () => number = () => performance.now()) {}

  /** Takes one from this second's budget; false when it is spent. */
  take(): boolean {
    const now = this._now();
    if (now - this._windowStart >= 1000) {
      this._windowStart = now;
      this._used = 0;
    }
    if (this._used >= this.limit) return false;
    this._used++;
    return true;
  }

  /** Starts a new second now, with `used` of it already spent. */
  restart(used: number): void {
    this._windowStart = this._now();
    this._used = used;
  }

  /** Milliseconds until the current second ends. */
  get msLeft(): number {
    return Math.max(0, this._windowStart + 1000 - this._now());
  }
}
