import { PerSecondBudget } from '../perSecond';

/** One progress notification, as the pipeline passes it on. */
export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** How many progress notifications a call shows per second; past it, only the latest is kept. */
export const PROGRESS_PER_SECOND = 20;

/**
 * Passes a call's progress on, at most `perSecond` a second: a server that sends 100,000
 * notifications would otherwise write 100,000 lines. Past the rate only the latest is held,
 * shown when the second ends or by `flush` (before the result), so the last is always shown.
 * `flush` returns how many were never shown.
 */
export class ProgressCoalescer {
  private readonly _budget: PerSecondBudget;
  private _held: Progress | undefined;
  private _timer: NodeJS.Timeout | undefined;
  private _dropped = 0;

  constructor(
    private readonly _show: (progress: Progress) => void,
    readonly perSecond = PROGRESS_PER_SECOND,
    now?: () => number,
  ) {
    this._budget = new PerSecondBudget(perSecond, now);
  }

  push(progress: Progress): void {
    if (this._held === undefined && this._budget.take()) return this._show(progress);
    if (this._held !== undefined) this._dropped++;
    this._held = progress;
    this._timer ??= setTimeout(() => {
      this._timer = undefined;
      this._showHeld();
    }, this._budget.msLeft);
  }

  /** Shows the held notification now; returns how many notifications were never shown. */
  flush(): number {
    clearTimeout(this._timer);
    this._timer = undefined;
    this._showHeld();
    return this._dropped;
  }

  private _showHeld(): void {
    const held = this._held;
    if (held === undefined) return;
    this._held = undefined;
    this._budget.restart(1);
    this._show(held);
  }
}
