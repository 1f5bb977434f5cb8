/**
 * What a call's code reads of its cancellation: whether and why it was stopped, and a listener for
 * when it is. An AbortSignal is one. So is a CallCancel's signal, which the gateway makes for each
 * call it answers: on Node 20 every AbortSignal gets a hidden class of its own, ~20 µs of a pipelined
 * gateway call (BENCHMARKS.md, ninth pass). Where an SDK or platform API needs a real AbortSignal,
 * `abortSignalOf` makes one, for that call only.
 */
export interface CallSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
  /** A light signal's AbortSignal, one that follows it, made at the first ask (an AbortSignal has none: it is one). */
  toAbortSignal?(): AbortSignal;
}

/** An AbortController of plain JavaScript: one shape for all, listeners called as an AbortSignal calls them. */
export class CallCancel {
  readonly signal: CallSignal = new LightSignal();

  abort(reason?: unknown): void {
    (this.signal as LightSignal).abort(reason);
  }
}

class LightSignal implements CallSignal {
  aborted = false;
  reason: unknown = undefined;
  private _listeners: Array<() => void> | undefined = undefined;
  private _real: AbortSignal | undefined = undefined;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** As an EventTarget does: a listener added twice is called once, one added after the abort never. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted) return;
    const listeners = (this._listeners ??= []);
    if (!listeners.includes(listener)) listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this._listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this._listeners!.splice(at, 1);
  }

  toAbortSignal(): AbortSignal {
    if (!this._real) {
      const controller = new AbortController();
      if (this.aborted) controller.abort(this.reason);
      else this.addEventListener('abort', () => controller.abort(this.reason));
      this._real = controller.signal;
    }
    return this._real;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this._listeners;
    this._listeners = undefined;
    for (const listener of listeners ?? []) {
      try {
        listener();
      } catch (error) {
        // As an EventTarget reports a listener's error: uncaught, after the others ran.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

/** `signal` as an AbortSignal, for an API that needs one: itself when it is one, else one that follows it. */
export function abortSignalOf(signal: CallSignal): AbortSignal;
export function abortSignalOf(signal: CallSignal | undefined): AbortSignal | undefined;
export function abortSignalOf(signal: CallSignal | undefined): AbortSignal | undefined {
  return signal === undefined || signal instanceof AbortSignal ? signal : signal.toAbortSignal?.();
}
