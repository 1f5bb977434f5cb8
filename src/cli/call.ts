import * as os from 'node:os';
import * as readline from 'node:readline/promises';
import { CallPipeline, summarize, type CallOutcome } from '../core/calls/callPipeline';
import type { Approver, CallSink } from '../core/calls/ports';
import { ServerState } from '../core/connection/serverState';
import { sanitizeLine } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import { saveToTemp, type CliHost } from './host';
import { problemText } from '../core/tools/schemaProblems';
import { defaultCliAuditFile, FileAuditLog } from '../core/calls/fileAuditLog';

/** The `call` command's options, as parsed from the command line. */
export interface CallCommandOptions {
  readonly server: string;
  readonly tool: string;
  readonly argsJson: string | undefined;
  readonly yes: boolean;
  readonly json: boolean;
  /** Where the call's audit record goes (--audit); the user's state folder by default. */
  readonly auditFile?: string;
}

/**
 * `call`: one tool call through the CallPipeline. Approval comes from --yes, or a y/N question
 * on a terminal; without either the call is refused and nothing is sent (exit 3).
 */
export async function callTool(host: CliHost, options: CallCommandOptions): Promise<ExitCode> {
  const args = parseArgsJson(options.argsJson);
  const connection = host.pool.get(options.server);
  await connection?.start();
  if (!connection || !ServerState.isRunning(connection.state)) {
    const why = connection?.state.kind === 'error' ? connection.state.message : 'it is not running';
    return report(options, { kind: 'failed', message: `Server "${options.server}" did not start: ${why}` }, undefined);
  }
  // A tool the server does not have is a mistake on the command line (exit 2), not a connection failure.
  if (!connection.tools.some((t) => t.name === options.tool)) {
    const names = connection.tools.map((t) => sanitizeLine(t.name)).join(', ') || '(none)';
    throw new CliError(`Server "${sanitizeLine(options.server)}" has no tool named "${sanitizeLine(options.tool)}". Its tools: ${names}.`);
  }
  let refusedHeadless: string | undefined;
  const approver: Approver = {
    async approve(req) {
      if (options.yes) return 'allow-once';
      if (!process.stdin.isTTY) {
        const untrusted = connection.definition.trustAnnotations ? '' : ' (its hints are not trusted: the config is a repository\'s; --trust-config if it is yours)';
        refusedHeadless = `${sanitizeLine(req.tool.name)} ${req.reasons.join(' and ')}${untrusted}: approve it with --yes, or run on a terminal to be asked.`;
        return 'deny';
      }
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        const question = `${sanitizeLine(req.server)}/${sanitizeLine(req.tool.name)} ${req.reasons.join(' and ')}.${os.EOL}Arguments: ${JSON.stringify(req.args)}${os.EOL}Allow this call? [y/N] `;
        return /^y(es)?$/i.test((await rl.question(question)).trim()) ? 'allow-once' : 'deny';
      } finally {
        rl.close();
      }
    },
  };
  const sink: CallSink = {
    begin: () => undefined,
    line: () => undefined,
    end: () => undefined,
    progress: (_id, p) => {
      if (!options.json) console.error(`progress ${p.progress}${p.total ? `/${p.total}` : ''} ${p.message ?? ''}`.trimEnd());
    },
    // A call the server runs as a task: its status as it goes (Ctrl+C cancels the task).
    task: (_id, text) => {
      if (!options.json) console.error(text);
    },
  };
  const pipeline = new CallPipeline(host.pool, host.validator, approver, sink, { saveBinary: saveToTemp, audit: new FileAuditLog(options.auditFile ?? defaultCliAuditFile()) });
  // Ctrl+C cancels the call (and a task the server runs for it); a second one quits at once.
  const stop = new AbortController();
  const interrupted = () => {
    if (stop.signal.aborted) process.exit(130);
    console.error('Cancelling the call (Ctrl+C again quits at once)…');
    stop.abort();
  };
  process.on('SIGINT', interrupted);
  try {
    const outcome = await pipeline.call({ server: options.server, tool: options.tool, args, origin: 'cli', signal: stop.signal });
    return report(options, outcome, refusedHeadless);
  } finally {
    process.off('SIGINT', interrupted);
  }
}

function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--args is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('--args must be a JSON object, as in --args \'{"name":"x"}\'.');
  return value as Record<string, unknown>;
}

function exitCodeOf(outcome: CallOutcome): ExitCode {
  switch (outcome.kind) {
    case 'ok':
      return Exit.ok;
    case 'tool-error':
      return Exit.toolError;
    case 'invalid-arguments':
      return Exit.usage;
    case 'denied':
      return Exit.approval;
    case 'cancelled':
    case 'protocol-error':
    case 'timeout':
    case 'failed':
      return Exit.connection;
  }
}

/** Results go to stdout; everything that explains a failure goes to stderr (or the JSON). */
function report(options: CallCommandOptions, outcome: CallOutcome, refusedHeadless: string | undefined): ExitCode {
  const exitCode = exitCodeOf(outcome);
  const denial = outcome.kind === 'denied' ? (refusedHeadless ? `not sent: denied, approval required: ${refusedHeadless}` : 'not sent: denied by the user.') : undefined;
  if (options.json) {
    const result = outcome.kind === 'ok' || outcome.kind === 'tool-error' ? { text: outcome.result.text, files: outcome.result.files, durationMs: Math.round(outcome.durationMs) } : undefined;
    const message = denial ?? (outcome.kind === 'ok' || outcome.kind === 'tool-error' ? undefined : summarize(outcome));
    const warning = outcome.kind === 'ok' ? outcome.outputWarning : undefined;
    console.log(JSON.stringify({ server: options.server, tool: options.tool, outcome: outcome.kind, exitCode, result, warning, problems: outcome.kind === 'invalid-arguments' ? outcome.problems.map(problemText) : undefined, message }, null, 2));
  } else if (outcome.kind === 'ok' || outcome.kind === 'tool-error') {
    console.log(outcome.result.text);
    if (outcome.kind === 'tool-error') console.error(`${sanitizeLine(options.tool)} returned an error (isError).`);
    if (outcome.kind === 'ok' && outcome.outputWarning) console.error(`warning: ${outcome.outputWarning}`);
  } else {
    console.error(denial ?? summarize(outcome));
  }
  return exitCode;
}
