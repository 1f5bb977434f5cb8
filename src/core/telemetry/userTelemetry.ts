import type { ServerPool } from '../connection/serverPool';
import type { Disposable } from '../events';
import { startOtelTelemetry } from './otelExport';
import { watchServers } from './serverWatch';
import type { Telemetry } from './telemetry';
import { TelemetrySettingsError, telemetryFromSettings } from './telemetrySettings';

/**
 * Telemetry as VS Code's user settings say, turned on, changed and off as they change; the pool's
 * servers watched while it is on. `refused` hears why it stays off (the settings' mistake, never a header's value).
 */
export class UserTelemetry {
  private _on: { readonly telemetry: Telemetry; readonly watch: Disposable } | undefined;

  constructor(private readonly _pool: ServerPool, private readonly _log: (line: string) => void, private readonly _refused: (why: string) => void) {}

  get current(): Telemetry | undefined {
    return this._on?.telemetry;
  }

  /** `read` gives a setting's user value (enabled, endpoint, headers, exportContent). */
  apply(read: (key: string) => unknown, env: Readonly<Record<string, string | undefined>>): void {
    void this.shutdown();
    if (read('enabled') !== true) return;
    try {
      const settings = telemetryFromSettings({ endpoint: read('endpoint'), headers: read('headers'), exportContent: read('exportContent') }, env);
      const telemetry = startOtelTelemetry(settings, this._log);
      this._log(`telemetry: exporting traces to ${settings.tracesUrl} and metrics to ${settings.metricsUrl}.`);
      this._on = { telemetry, watch: watchServers(this._pool, () => telemetry) };
    } catch (err) {
      if (!(err instanceof TelemetrySettingsError)) throw err;
      this._refused(err.message);
    }
  }

  /** Sends what is queued (within a bound) and turns telemetry off. */
  async shutdown(): Promise<void> {
    const was = this._on;
    this._on = undefined;
    was?.watch.dispose();
    await was?.telemetry.shutdown();
  }
}
