import * as vscode from 'vscode';
import { ServerConnection } from '../core/connection/serverConnection';
import type { ServerPool } from '../core/connection/serverPool';
import { captureLog, doctorServer, formatDoctorReport, type DoctorReport } from '../core/connection/serverDoctor';
import { sanitizeLine } from '../core/render/sanitize';
import type { ServerLogs } from './serverLogs';

/**
 * "Run Doctor": the CLI's doctor for one server, run on a separate connection so the live one
 * is left alone (a running server keeps running; a failed one keeps its error until Restart).
 * The report goes to the server's log channel, which is shown; a short verdict pops up.
 * Workspace-defined servers still pass the launch prompt. Returns the report (tests read it).
 */
export async function runDoctor(pool: ServerPool, logs: ServerLogs, name: string): Promise<DoctorReport | undefined> {
  const live = pool.get(name);
  if (!live) {
    void vscode.window.showErrorMessage(`No server named "${sanitizeLine(name)}" is configured.`);
    return undefined;
  }
  const capture = captureLog();
  // The pool's own dependencies (variables, inputs, the launch prompt), with a log of our own.
  const deps = pool.connectionDeps(live.definition);
  const connection = new ServerConnection(live.definition, { ...deps, log: capture.log, toolCache: undefined });
  const channel = logs.channel(name);
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running doctor on "${sanitizeLine(name)}"…` },
    async () => {
      try {
        return await doctorServer(connection, { resolveLaunch: deps.resolveLaunch, logLines: () => capture.lines });
      } finally {
        await connection.stop();
        connection.dispose();
      }
    },
  );
  channel.info(`Doctor report (${new Date().toLocaleString()}):`);
  for (const line of formatDoctorReport(report).split('\n')) {
    if (line.includes('[FAILED]')) channel.error(line);
    else channel.info(line);
  }
  channel.show(true);
  const failed = report.steps.find((s) => !s.ok);
  const verdict = report.skipped
    ? `Doctor skipped "${sanitizeLine(name)}": ${report.skipped}.`
    : failed
      ? `Doctor: "${sanitizeLine(name)}" fails at ${failed.step}: ${sanitizeLine(failed.detail)}`
      : `Doctor: "${sanitizeLine(name)}" is healthy (${report.steps.map((s) => s.step).join(', ')} passed).`;
  if (failed) void vscode.window.showWarningMessage(verdict, 'Show Log').then((a) => a && channel.show());
  else void vscode.window.showInformationMessage(verdict);
  return report;
}
