import { resolveLaunch } from '../core/config/launch';
import { doctorServer, formatDoctorReport, type DoctorReport } from '../core/connection/serverDoctor';
import { visibleJson } from '../core/render/sanitize';
import { Exit, type ExitCode } from './args';
import type { CliHost } from './host';

export type { DoctorReport, DoctorStep } from '../core/connection/serverDoctor';

/**
 * `doctor`: for each server, what would run (executable, PATH, node version, launch line), then
 * the handshake step by step (see doctorServer, shared with the extension's "Run Doctor").
 * Exit 4 when any server failed to connect, 2 when only the configuration was at fault, else 0.
 */
export async function doctor(host: CliHost, json: boolean): Promise<ExitCode> {
  const reports: DoctorReport[] = await Promise.all(
    host.pool.connections.map((c) => doctorServer(c, { resolveLaunch: (def) => resolveLaunch(def, host.variables) })),
  );
  if (json) console.log(visibleJson(reports, 2));
  else console.log(reports.map(formatDoctorReport).join('\n\n'));
  const failed = reports.filter((r) => !r.ok);
  if (failed.some((r) => r.steps.some((s) => !s.ok && s.step !== 'config'))) return Exit.connection;
  return failed.length ? Exit.usage : Exit.ok;
}
