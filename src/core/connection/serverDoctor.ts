import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { ServerDefinition } from '../config/serverConfig';
import { sanitizeLine } from '../render/sanitize';
import { formatCommandLine, pathEntries, resolveExecutable } from '../transport/commandLine';
import type { ResolvedLaunch } from '../config/launch';
import type { ServerConnection } from './serverConnection';
import { safeText } from '../render/secrets';
import { loadConfigOptions } from '../config/load';
import { policyFiles } from '../config/policyPaths';
import { loadInstall } from '../install/load';
import { loadTransport } from '../transport/load';

/** `node -v` must not hang the doctor (a broken shim can wait forever). */
const VERSION_TIMEOUT_MS = 5000;
const STDERR_LINES_SHOWN = 10;

export interface DoctorStep {
  readonly step: 'config' | 'spawn' | 'initialize' | 'tools';
  readonly ok: boolean;
  readonly detail: string;
}

/** What doctor found out about one server (the CLI's `--json` prints a list of these). */
export interface DoctorReport {
  readonly server: string;
  readonly type: 'stdio' | 'http';
  readonly ok: boolean;
  readonly skipped?: string;
  readonly command?: string;
  /** The file the OS would run, or null when nothing on PATH matches. */
  readonly executable?: string | null;
  readonly path?: readonly string[];
  readonly node?: { readonly executable: string | null; readonly version?: string; readonly error?: string };
  readonly launch?: string;
  readonly cwd?: string;
  readonly steps: DoctorStep[];
  readonly stderr: readonly string[];
  /** A sandboxed server: what it may reach, and whether this machine can sandbox (bubblewrap, socat, ripgrep). */
  readonly sandbox?: { readonly effective: readonly string[]; readonly prerequisites: string };
}

/** What a doctor run needs besides the connection it starts. */
export interface DoctorDeps {
  /** The launch with variables resolved; a throw is reported as the "config" step. */
  readonly resolveLaunch: (def: ServerDefinition) => ResolvedLaunch | Promise<ResolvedLaunch>;
}

type LaunchFacts = Pick<DoctorReport, 'command' | 'executable' | 'path' | 'node' | 'launch' | 'cwd'>;

/**
 * Doctor for one server: what would run (executable, PATH, which node and its version, launch
 * line), then starts the given connection and reports the handshake step by step. The
 * connection should be a fresh one that nobody else uses; the caller stops it afterwards.
 */
export async function doctorServer(connection: ServerConnection, deps: DoctorDeps): Promise<DoctorReport> {
  const def = connection.definition;
  const base = { server: def.name, type: def.spec.type, stderr: [] as string[] };
  if (def.disabled) return { ...base, ok: true, skipped: 'disabled in the configuration', steps: [] };
  let launch: ResolvedLaunch;
  try {
    await loadConfigOptions().checkRegistryNames(policyFiles(), (patterns, url) => loadInstall().registryNameRuns(patterns, url));
    launch = await deps.resolveLaunch(def);
  } catch (err) {
    return { ...base, ok: false, steps: [{ step: 'config', ok: false, detail: err instanceof Error ? err.message : String(err) }] };
  }
  const launchFacts: LaunchFacts = launch.type === 'stdio' ? await stdioFacts(launch.launch) : { launch: launch.url };
  const sandbox = launch.type === 'stdio' && launch.sandbox ? await loadTransport().sandboxFacts(loadConfigOptions().describeSandbox(launch.sandbox)) : undefined;

  const started = performance.now();
  await connection.start({ byUser: true }); // the user asked for the check: a declined launch asks again
  const ms = Math.round(performance.now() - started);
  const state = connection.state;
  const found = connection.facts; // what the start found out, as values
  const stderr = found.stderr.slice(-STDERR_LINES_SHOWN);
  const steps: DoctorStep[] = [];
  const stdio = launch.type === 'stdio';
  if (state.kind === 'running') {
    if (stdio) steps.push({ step: 'spawn', ok: true, detail: 'spawned' });
    const server = [state.serverName, state.serverVersion].filter(Boolean).join(' ') || '(no name)';
    steps.push({ step: 'initialize', ok: true, detail: `initialize answered in ${ms} ms: protocol ${state.protocolVersion ?? '?'}, server ${server}` });
    if (found.listingError) steps.push({ step: 'tools', ok: false, detail: found.listingError });
    else steps.push({ step: 'tools', ok: true, detail: `tools listed: ${connection.tools.length}${found.noToolsCapability ? ' (the server does not declare the "tools" capability)' : ''}` });
  } else {
    const message = state.kind === 'error' ? state.message : `the server is ${state.kind}`;
    // No process came to be: the command was missing, or the sandbox refused to start it.
    const notSpawned = stdio && !found.spawned;
    if (stdio && notSpawned) steps.push({ step: 'spawn', ok: false, detail: message });
    else {
      if (stdio) steps.push({ step: 'spawn', ok: true, detail: 'spawned' });
      steps.push({ step: 'initialize', ok: false, detail: message });
    }
  }
  return withoutSecrets({ ...base, ...launchFacts, ...(sandbox && { sandbox }), ok: steps.every((s) => s.ok), steps, stderr }, launch.secrets);
}

/** The report with the launch's secrets masked: the resolved launch line holds `${input:...}` values. */
function withoutSecrets(report: DoctorReport, secrets: readonly string[] | undefined): DoctorReport {
  const safe = (text: string | undefined) => (text === undefined ? undefined : safeText(text, secrets));
  return {
    ...report,
    command: safe(report.command),
    launch: safe(report.launch),
    cwd: safe(report.cwd),
    steps: report.steps.map((s) => ({ ...s, detail: safeText(s.detail, secrets) })),
    stderr: report.stderr.map((line) => safeText(line, secrets)),
  };
}

/** The report as aligned plain-text lines (the CLI prints them; the extension writes them to the server's log). */
export function formatDoctorReport(r: DoctorReport): string {
  const lines = [`${sanitizeLine(r.server)} (${r.type})`];
  const row = (label: string, value: string) => lines.push(`  ${label.padEnd(11)} ${value}`);
  if (r.skipped) row('skipped', r.skipped);
  if (r.command !== undefined) row('command', r.command);
  if (r.executable !== undefined) row('executable', r.executable ?? `not found on PATH`);
  if (r.path) row('PATH', r.path.join(path.delimiter) || '(empty)');
  if (r.node) row('node -v', r.node.version ? `${r.node.version} (${r.node.executable})` : `failed: ${r.node.error}${r.node.executable ? ` (${r.node.executable})` : ''}`);
  if (r.launch !== undefined) row(r.type === 'http' ? 'url' : 'launch', r.launch);
  if (r.cwd) row('cwd', r.cwd);
  if (r.sandbox) {
    row('sandbox', r.sandbox.prerequisites);
    for (const line of r.sandbox.effective) row('', sanitizeLine(line));
  }
  for (const s of r.steps) lines.push(`  ${s.ok ? '[ok]    ' : '[FAILED]'} ${s.ok ? '' : `${s.step}: `}${sanitizeLine(s.detail)}`);
  if (!r.ok && r.stderr.length) lines.push(`  stderr (last ${r.stderr.length} lines):`, ...r.stderr.map((l) => `    ${sanitizeLine(l)}`));
  return lines.join('\n');
}

/** The executable, PATH and, for Node launchers, which node that PATH gives and its version. */
async function stdioFacts(launch: { command: string; args: readonly string[]; env: Readonly<Record<string, string>>; cwd?: string }): Promise<LaunchFacts> {
  const executable = resolveExecutable(launch.command, launch.env, launch.cwd) ?? null;
  const name = path.basename(launch.command).replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
  let node: DoctorReport['node'];
  if (['node', 'npx', 'npm'].includes(name)) {
    // npx and npm run whichever node their PATH gives them: nvm mix-ups show here.
    const nodeExe = name === 'node' ? executable : (resolveExecutable('node', launch.env, launch.cwd) ?? null);
    node = nodeExe ? { executable: nodeExe, ...(await nodeVersion(nodeExe, launch.env)) } : { executable: null, error: 'no node on this PATH' };
  }
  return {
    command: launch.command,
    executable,
    path: pathEntries(launch.env),
    node,
    launch: formatCommandLine(launch.command, launch.args),
    cwd: launch.cwd,
  };
}

function nodeVersion(executable: string, env: Readonly<Record<string, string>>): Promise<{ version?: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(executable, ['-v'], { env: { ...env }, timeout: VERSION_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      if (err) resolve({ error: err.killed ? `no answer within ${VERSION_TIMEOUT_MS / 1000} s` : err.message });
      else resolve({ version: stdout.trim() });
    });
  });
}
