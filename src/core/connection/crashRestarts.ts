import type { ServerLog } from '../serverLog';
import { RestartPolicy } from './restartPolicy';
import { ServerFailure } from './serverFailures';
import type { ServerState } from './serverState';

/** Automatic restarts after a crash: when the next one runs (restartPolicy.ts), or that it gave up. */
export class CrashRestarts {
  private _timer: NodeJS.Timeout | undefined;

  constructor(private readonly _policy: RestartPolicy = new RestartPolicy()) {}

  /** Schedules `relaunch`, or gives up when crashes come too fast; returns the state the server shows meanwhile. */
  afterCrash(message: string, detail: readonly string[] | undefined, log: ServerLog, relaunch: () => void): ServerState {
    const decision = this._policy.onCrash();
    if (decision.kind === 'give-up') {
      const gaveUp = ServerFailure.gaveUp(message, decision.crashes);
      log.error(gaveUp);
      return { kind: 'error', message: gaveUp, detail };
    }
    log.warn(`Restarting in ${decision.delayMs / 1000} s (automatic restart ${decision.attempt}).`);
    this.cancel();
    this._timer = setTimeout(relaunch, decision.delayMs);
    return { kind: 'error', message, detail, restartInMs: decision.delayMs };
  }

  cancel(): void {
    clearTimeout(this._timer);
  }

  /** A start the user asked for: no restart pending, and the crash count begins again. */
  reset(): void {
    this.cancel();
    this._policy.reset();
  }
}
