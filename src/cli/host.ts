import * as path from 'node:path';
import { requiredInputs, resolveLaunch, resolveLaunchAsking } from '../core/config/launch';
import type { ServerDefinition } from '../core/config/serverConfig';
import type { VariableContext } from '../core/config/variables';
import { ServerPool } from '../core/connection/serverPool';
import type { ConnectionDeps } from '../core/connection/connectionDeps';
import { sanitizeLine, shownName } from '../core/render/sanitize';
import { silentLog, type ServerLog } from '../core/serverLog';
import { SchemaValidator } from '../core/tools/schemaValidator';
import { cliOAuthHost, type BrowserChoice, type CliSignInOptions } from './oauthHost';
import type { Elicitor } from '../core/elicitation/formElicitation';
import type { Sampler } from '../core/connection/samplingRequests';
import { rememberedEra } from '../core/connection/eraMemory';
import { defaultCliAuditFile } from '../core/calls/fileAuditLog';
import { eraFile } from './eraFile';
import { cliVariables } from './workspace';
import { InputAsker } from './inputPrompt';
import { DEFAULT_RESULTS_MAX_MIB } from '../core/render/resultBudget';
import { ResultFolder } from '../core/render/resultFolder';
import type { BinarySaver } from '../core/render/renderResult';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry/telemetry';
import { loadTelemetry } from '../core/telemetry/load';

export interface CliHost {
  readonly pool: ServerPool;
  readonly validator: SchemaValidator;
  /** What `${workspaceFolder}` and friends resolve against: the CLI's workspace (workspace.ts). */
  readonly variables: VariableContext;
  /** Where calls, listings and server lifecycles are traced: off unless MCP_TOOL_HOST_OTEL=1 (docs/telemetry.md). */
  readonly telemetry: () => Telemetry;
  close(): Promise<void>;
}

/** A pool for the given servers, not started; `${workspaceFolder}` is the CLI's workspace (workspace.ts: the config's folder for a workspace's file, else the current directory). */
export function createHost(servers: readonly ServerDefinition[], options: { configFile?: string; askInputs?: boolean; handshakeTimeoutMs?: number; clientVersion: string; elicit?: Elicitor; elicitLinks?: boolean; sample?: Sampler; browser?: BrowserChoice; serverMessages?: boolean; signIn?: CliSignInOptions; logOf?: (name: string, log: ServerLog) => ServerLog; adoptEarly?: ConnectionDeps['adoptEarly'] }): CliHost {
  const variables = cliVariables(options.configFile);
  // On a terminal, an input without its variable is asked for (not by serve or session, whose stdin is the protocol's).
  const asker = options.askInputs && process.stdin.isTTY ? new InputAsker(process.stdin, process.stderr) : undefined;
  const resolve = async (def: ServerDefinition) => {
    const ids = requiredInputs(def);
    const unset = asker ? ids.filter((id) => variables.inputs?.[id] === undefined) : [];
    if (!asker || unset.length === 0) return resolveLaunch(def, variables);
    return resolveLaunchAsking(def, variables, async () => {
      const asked = await asker.ask(def, unset);
      // Each id has its variable's value (cliVariables) or the answer just given.
      return Object.fromEntries(ids.map((id) => [id, variables.inputs?.[id] ?? asked[id]]));
    });
  };
  const validator = new SchemaValidator();
  const oauth = cliOAuthHost(options.browser, options.signIn);
  // Each run is a new start: the era a launch spoke last time saves a 2025-era server the probe.
  const eras = eraFile(stateFile('eras.json'));
  // Nothing prints a server's log in a terminal: doctor reads the connection's facts instead.
  const pool = new ServerPool((name, definition) => ({
    validator,
    clientVersion: options.clientVersion,
    handshakeTimeoutMs: options.handshakeTimeoutMs,
    // The command exits once its answer and audit record are out; the server's shutdown goes on without it.
    stopDetached: true,
    // The server main.ts spawned while this code loaded, when its launch is exactly the one resolved here.
    adoptEarly: options.adoptEarly,
    log: (options.logOf ?? ((_, log) => log))(name, options.serverMessages ? serverMessagesOn(name) : silentLog),
    resolveLaunch: resolve,
    oauth,
    elicit: options.elicit,
    elicitLinks: options.elicitLinks,
    // Only serve has a model to ask (its client's): elsewhere the servers are not offered sampling.
    sample: options.sample,
    // But a server's prompts that the host declined on its own are said, once each, as the other declines are.
    promptsDeclined: (sentence) => console.error(`"${sanitizeLine(name)}": ${sentence}`),
    eraMemory: rememberedEra(eras, definition),
  }));
  pool.apply({ servers: [...servers], errors: [] }, { autoStart: false });
  const telemetry = telemetryFromEnvironment();
  const watch = telemetry === NO_TELEMETRY ? undefined : loadTelemetry().watchServers(pool, () => telemetry);
  return {
    pool,
    validator,
    variables,
    telemetry: () => telemetry,
    async close() {
      await pool.stopAll();
      watch?.dispose();
      pool.dispose();
      // What is still queued is sent, within a bound: a collector that hangs does not hold the exit.
      await telemetry.shutdown();
    },
  };
}

/**
 * Telemetry from the environment: the OpenTelemetry variables (OTEL_EXPORTER_OTLP_ENDPOINT, ...)
 * count only with MCP_TOOL_HOST_OTEL=1, so a variable a CI job sets for other tools starts nothing
 * here. A bad value is said on stderr and leaves telemetry off: telemetry never stops a command.
 */
function telemetryFromEnvironment(): Telemetry {
  if (process.env.MCP_TOOL_HOST_OTEL === undefined) return NO_TELEMETRY;
  const later = loadTelemetry();
  try {
    const settings = later.telemetryFromEnv(process.env);
    return settings ? later.startOtelTelemetry(settings, (line) => console.error(line)) : NO_TELEMETRY;
  } catch (err) {
    if (!(err instanceof later.TelemetrySettingsError)) throw err;
    console.error(`telemetry is off: ${err.message}`);
    return NO_TELEMETRY;
  }
}

/** The server's own log messages (`notifications/message`, written "[level] ..."), on stderr under its name; the host's lines stay out. */
function serverMessagesOn(name: string): ServerLog {
  const print = (m: string) => void (SERVER_MESSAGE.test(m) && console.error(`${shownName(name)}: ${m}`));
  return { info: print, warn: print, error: print, stderr: () => undefined };
}
const SERVER_MESSAGE = /^\[(debug|info|notice|warning|error|critical|alert|emergency)\] /;

/** A file of the CLI's state (remembered eras, rule bindings): beside its default audit log. */
export function stateFile(name: string): string {
  return path.join(path.dirname(defaultCliAuditFile()), name);
}

/**
 * Where `call` saves images, audio and blobs: the folder --files names, where they are kept (the
 * user's folder: nothing in it is ever removed; at most DEFAULT_RESULTS_MAX_MIB a run), with names
 * of ours for their types. Without --files nothing is saved and the output says how to save: a
 * file in a temp folder would outlive the run, and one removed at exit would be named for nothing.
 */
export function resultSaver(filesDir: string | undefined): (callId: string) => BinarySaver {
  if (filesDir === undefined) return () => async () => ({ leftOut: '--files DIR saves it' });
  const MiB = 1024 * 1024;
  const folder = new ResultFolder(path.resolve(filesDir), () => ({ maxBytes: DEFAULT_RESULTS_MAX_MIB * MiB, maxAgeMs: Infinity }), { owns: 'run', fullWhy: (max) => `over the ${max / MiB} MiB one run saves` });
  return (callId) => (data, mimeType, nameHint) => folder.saveBinary(callId, data, mimeType, nameHint);
}
