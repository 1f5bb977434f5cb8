import * as vscode from 'vscode';
import type { ConnectionDeps, ServerConnection } from '../../core/connection/serverConnection';
import type { ServerDefinition } from '../../core/config/serverConfig';
import type { ServerPool } from '../../core/connection/serverPool';
import { doctorServer, formatDoctorReport, type DoctorReport } from '../../core/connection/serverDoctor';
import { silentLog } from '../../core/serverLog';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type { ServerLogs } from '../shared/serverLogs';

/**
 * "Run Doctor": the CLI's doctor for one server, run on a separate connection so the live one
 * is left alone (a running server keeps running; a failed one keeps its error until Restart).
 * The report goes to the server's log channel, which is shown; a short verdict pops up.
 * Workspace-defined servers still pass the launch prompt. Returns the report (tests read it).
 * `connect` makes the separate connection (the class stays in dist/extension.js; this file loads with dist/forms.js).
 */
export async function runDoctor(pool: ServerPool, logs: ServerLogs, name: string, connect: (definition: ServerDefinition, deps: ConnectionDeps) => ServerConnection): Promise<DoctorReport | undefined> {
  const live = pool.get(name);
  if (!live) {
    void vscode.window.showErrorMessage(vscode.l10n.t('No server named "{0}" is configured.', shownName(name)));
    return undefined;
  }
  // The pool's own dependencies (variables, inputs, the launch prompt); the doctor reads the
  // connection's facts, so its log goes nowhere.
  const deps = pool.connectionDeps(live.definition);
  const connection = connect(live.definition, { ...deps, log: silentLog, toolCache: undefined });
  const channel = logs.channel(name);
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running doctor on "{0}"…', shownName(name)) },
    async () => {
      try {
        return await doctorServer(connection, { resolveLaunch: deps.resolveLaunch });
      } finally {
        await connection.stop();
        connection.dispose();
      }
    },
  );
  channel.info(vscode.l10n.t('Doctor report ({0}):', new Date().toLocaleString()));
  for (const line of formatDoctorReport(report).split('\n')) {
    if (line.includes('[FAILED]')) channel.error(line);
    else channel.info(line);
  }
  channel.show(true);
  const failed = report.steps.find((s) => !s.ok);
  const verdict = report.skipped
    ? vscode.l10n.t('Doctor skipped "{0}": {1}.', shownName(name), report.skipped)
    : failed
      ? vscode.l10n.t('Doctor: "{0}" fails at {1}: {2}', shownName(name), failed.step, sanitizeLine(failed.detail))
      : vscode.l10n.t('Doctor: "{0}" is healthy ({1} passed).', shownName(name), report.steps.map((s) => s.step).join(', '));
  if (failed) void vscode.window.showWarningMessage(verdict, vscode.l10n.t('Show Log')).then((a) => a && channel.show());
  else void vscode.window.showInformationMessage(verdict);
  return report;
}
