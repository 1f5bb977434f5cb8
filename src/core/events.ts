/** A disposable resource: whatever owns listeners, timers or processes implements this. */
export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

/**
 * A tiny typed event emitter for the core (which cannot use `vscode.EventEmitter`).
 * A throwing listener is isolated so the others still run.
 */
export class Emitter<T> implements Disposable {
  private readonly _listeners = new Set<Listener<T>>();

  readonly event: Event<T> = (listener) => {
    this._listeners.add(listener);
    return { dispose: () => this._listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this._listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('[mcp-tool-host] listener failed:', err);
      }
    }
  }

  get listenerCount(): number {
    return this._listeners.size;
  }

  dispose(): void {
    this._listeners.clear();
  }
}

/** Exhaustiveness check for discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
