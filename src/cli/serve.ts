import { CallPipeline } from '../core/calls/callPipeline';
import type { Approver, CallSink } from '../core/calls/ports';
import { defaultCliAuditFile } from '../core/calls/fileAuditLog';
import { BatchedAuditLog } from '../core/calls/batchedAuditLog';
import { loadGateway } from '../core/gateway/load';
import type { RuleSet } from '../core/policy/ruleSource';
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimit } from '../core/policy/rateLimiter';
import type { ServerLog } from '../core/serverLog';
import type { BackendRelay } from '../core/gateway/backendRelay';
import { Exit, type ExitCode } from './args';
import { ruleOptions } from './call';
import type { CliHost } from './host';
import { acceptCommand, cliPins } from './pinsCommands';
import { DefinitionPins } from '../core/policy/definitionPins';
import { DEFAULT_RESULT_TOKENS } from '../core/chat/resultBudget';
import { ownedSignals } from './signalOwners';
import { sayServerStates } from './serveStates';

/** The `serve` command's options, as parsed from the command line. */
export interface ServeOptions {
  /** The --config file, as the command that accepts a changed tool names it. */
  readonly configFile: string;
  readonly http: boolean;
  readonly port?: number;
  readonly tools: 'all' | 'search';
  readonly rules: RuleSet;
  readonly auditFile?: string;
  readonly clientVersion: string;
  /** The calls each server may take (--rate-limit; default: the core's, burst 20 and 10 a second); the bench raises it to time the path itself. */
  readonly rateLimit?: RateLimit;
  /** The servers' forms and log messages during a call, passed to the client that made it. */
  readonly relay?: BackendRelay;
  /** The default budget of a tool result before the client's model (--result-tokens); 'off': results pass whole; none: DEFAULT_RESULT_TOKENS. */
  readonly resultTokens?: number | 'off';
}

/** The gateway decides every ask with the client; this is what the pipeline would fall back on: no. */
const NOBODY: Approver = { approve: async () => ({ kind: 'refused', why: 'approval required, and nobody to ask' }) };
/** Nothing of a call is printed: stdout is the MCP stream, and the client gets the result. */
const QUIET: CallSink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };
/** The gateway's own lines go to stderr (a client shows them as the server's log, or nobody reads them). */
const STDERR: ServerLog = { info: (m) => console.error(m), warn: (m) => console.error(m), error: (m) => console.error(m), stderr: () => undefined };

/**
 * `serve`: the configured servers as one MCP server, every call through the pipeline (origin
 * `gateway`). Over stdio it runs until the client closes stdin; over HTTP until SIGINT or
 * SIGTERM. Either way the caller then stops every server it started.
 */
export async function serve(host: CliHost, options: ServeOptions): Promise<ExitCode> {
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const audit = new BatchedAuditLog(options.auditFile ?? defaultCliAuditFile());
  const pipeline = new CallPipeline(host.pool, host.validator, NOBODY, QUIET, { audit, telemetry: host.telemetry, ...ruleOptions(host, options.rules), rateLimiter: new RateLimiter(() => limit, undefined, 'serve --rate-limit') });
  const gateway = loadGateway();
  // Trust on first use: a tool that changed since the gateway first listed it (or since `pins accept`) is withheld.
  const file = cliPins(host);
  file.launches(''); // a damaged pins file stops here (exit 2), before a client is served
  // `pins accept` in another terminal reaches the clients at once: they are told to list the tools again.
  const pins = gateway.storedPins(new DefinitionPins(file), host.pool, file.version, (server, tool) => `accept with \`${acceptCommand(server, tool, options.configFile)}\``, (listener) => file.watch(listener, (line) => console.error(`gateway: ${line}`)));
  const budget = options.resultTokens === 'off' ? undefined : (options.resultTokens ?? DEFAULT_RESULT_TOKENS);
  const deps = { pool: host.pool, pipeline, asks: 'client' as const, toolMode: options.tools, log: STDERR, clientVersion: options.clientVersion, pins, audit, relay: options.relay, resultTokens: () => budget };
  const states = sayServerStates(host.pool, (line) => console.error(line));
  // The gateway ends on SIGINT and SIGTERM itself (then the command stops the servers): not commands.ts's to handle.
  ownedSignals.add('SIGINT').add('SIGTERM');
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  if (options.http) {
    const running = await gateway.startHttpGateway(deps, { port: options.port });
    const [base, path] = [running.url.slice(0, -'/mcp'.length), '/mcp'];
    console.error(`mcp-tool-host gateway: ${base}/${running.token}${path}`);
    console.error(`(or ${running.url} with the header "Authorization: Bearer ${running.token}"); Ctrl+C stops it.`);
    await stopped;
    await running.close();
  } else {
    const running = await gateway.serveStdio(deps, process.stdin, process.stdout);
    await Promise.race([running.closed, stopped]);
    await running.close();
  }
  states.dispose();
  return Exit.ok;
}
