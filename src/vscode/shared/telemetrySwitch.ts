import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { loadTelemetry } from '../../core/telemetry/load';
import type { Telemetry } from '../../core/telemetry/telemetry';
import type { UserTelemetry } from '../../core/telemetry/userTelemetry';

export interface TelemetrySwitch {
  /** The telemetry in force now, none when off (the pipeline asks at each call). */
  readonly current: () => Telemetry | undefined;
  /** Stops listening to the settings, sends what is queued (within a bound) and turns telemetry off. */
  dispose(): Promise<void> | undefined;
}

const SECTION = 'mcpToolHost.telemetry';

/**
 * OpenTelemetry as the user's settings say: off by default, and loaded only once turned on. User
 * settings only: a repository's settings could otherwise send what its calls do to an endpoint of its choosing.
 */
export function telemetrySwitch(pool: ServerPool, output: vscode.OutputChannel): TelemetrySwitch {
  let user: UserTelemetry | undefined;
  const apply = () => {
    const read = (key: string) => vscode.workspace.getConfiguration(SECTION).inspect(key)?.globalValue;
    if (read('enabled') !== true && !user) return;
    user ??= new (loadTelemetry().UserTelemetry)(pool, (line) => output.appendLine(line), (why) => output.appendLine(vscode.l10n.t('telemetry is off: {0}', why)));
    user.apply(read, process.env);
  };
  apply();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && apply());
  return { current: () => user?.current, dispose: () => (listener.dispose(), user?.shutdown()) };
}
