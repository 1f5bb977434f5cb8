import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeFolder } from '../core/userFolders';
import * as os from 'node:os';
import * as readline from 'node:readline/promises';
import { CallPipeline, summarize, type CallOutcome } from '../core/calls/callPipeline';
import type { Approver, CallSink } from '../core/calls/ports';
import { ServerState } from '../core/connection/serverState';
import type { RawToolResult } from '../core/render/renderResult';
import { sanitizeLine, shownArguments, shownName, visibleJson } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import { parseArgsJson } from './argsJson';
import { ownedSignals } from './signalOwners';
import { resultSaver, stateFile, type CliHost } from './host';
import { problemText } from '../core/tools/schemaProblems';
import { AuditWriteError } from '../core/calls/auditFailure';
import { defaultCliAuditFile, FileAuditLog } from '../core/calls/fileAuditLog';
import type { ServerConnection } from '../core/connection/serverConnection';
import { RuleBindings } from '../core/policy/ruleBindings';
import type { RuleSet } from '../core/policy/ruleSource';
import { ruleBindingsFile } from './bindingsFile';

/** The `call` command's options, as parsed from the command line. */
export interface CallCommandOptions {
  readonly server: string;
  readonly tool: string;
  readonly argsJson: string | undefined;
  readonly yes: boolean;
  readonly json: boolean;
  /** Where the call's audit record goes (--audit); the user's state folder by default. */
  readonly auditFile?: string;
  /** Where binary content is saved and kept (--files); without it, nothing is saved. */
  readonly filesDir?: string;
  /** The argument rules in force (policy files, --rules, the workspace's settings). */
  readonly rules: RuleSet;
  /** The JSON on one line (a session's output: one line per command). */
  readonly jsonLines?: boolean;
  /** Why nobody can be asked when stdin is not a terminal, and what to do; said when a call needing approval is refused. */
  readonly noTerminalHint?: string;
}

/** How a call was denied: by the user or for want of approval (the approver was asked), or by a rule (it was not). */
interface Denial {
  asked: boolean;
  refusedHeadless?: string;
}

/**
 * Starts the server a command is about and checks it has the tool. A server that does not start,
 * or whose listing failed (a sign-in that ran out, say), is a failure to report with its cause
 * (exit 4); a tool it does not have, a mistake on the command line (exit 2).
 */
export async function startForTool(host: CliHost, server: string, tool: string): Promise<ServerConnection | { readonly failed: string }> {
  const connection = host.pool.get(server);
  await connection?.start();
  if (!connection || !ServerState.isRunning(connection.state)) {
    const why = connection?.state.kind === 'error' ? connection.state.message : 'it is not running';
    return { failed: `Server "${server}" did not start: ${why}` };
  }
  if (!connection.tools.some((t) => t.name === tool)) {
    const listingError = connection.facts.listingError;
    if (listingError !== undefined) return { failed: `Server "${shownName(server)}" has no tools to call: ${sanitizeLine(listingError)}` };
    const names = connection.tools.map((t) => shownName(t.name)).join(', ') || '(none)';
    throw new CliError(`Server "${shownName(server)}" has no tool named "${shownName(tool)}". Its tools: ${names}.`);
  }
  return connection;
}

/** The pipeline options every CLI command that decides calls shares: rules, and their bindings kept between runs. */
export function ruleOptions(host: CliHost, rules: RuleSet) {
  return { argumentRules: rules, ruleBindings: new RuleBindings(ruleBindingsFile(stateFile('rule-bindings.json'))), workspaceFolder: () => host.variables.workspaceFolders[0]?.path };
}

/**
 * `call`: one tool call through the CallPipeline. A rule that denies it ends it (exit 3, the
 * rule's sentence on stderr; --yes does not change that). Approval comes from --yes, or a y/N
 * question on a terminal; without either the call is refused and nothing is sent (exit 3).
 */
export async function callTool(host: CliHost, options: CallCommandOptions): Promise<ExitCode> {
  const args = parseArgsJson(options.argsJson);
  const connection = await startForTool(host, options.server, options.tool);
  if ('failed' in connection) return report(options, { kind: 'failed', message: connection.failed }, { asked: false });
  const denial: Denial = { asked: false };
  const approver: Approver = {
    async approve(req) {
      denial.asked = true;
      if (options.yes) return 'allow-once';
      if (!process.stdin.isTTY) {
        const untrusted = connection.definition.trustAnnotations ? '' : ' (its hints are not trusted: the config is a repository\'s; --trust-config if it is yours)';
        denial.refusedHeadless = `${shownName(req.tool.name)} ${sanitizeLine(req.reasons.join(' and '))}${untrusted}: ${options.noTerminalHint ?? 'approve it with --yes, or run on a terminal to be asked.'}`;
        return { kind: 'refused', why: 'approval required, and no terminal to ask on (no --yes)' };
      }
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        // Arguments as the approval prompt shows them: hidden and direction characters as escapes.
        const question = `${shownName(req.server)}/${shownName(req.tool.name)} ${sanitizeLine(req.reasons.join(' and '))}.${os.EOL}Arguments: ${shownArguments(req.args)}${os.EOL}Allow this call? [y/N] `;
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
  const audit = new FileAuditLog(options.auditFile ?? defaultCliAuditFile());
  // A log that cannot be written is found before the call is sent, not after it ran.
  const unwritable = auditProblem(audit.file);
  if (unwritable) {
    console.error(`error: the audit log ${audit.file} cannot be written (${sanitizeLine(unwritable)}): nothing was sent. Give --audit FILE in a folder you can write.`);
    return Exit.usage;
  }
  const pipeline = new CallPipeline(host.pool, host.validator, approver, sink, { saveBinary: resultSaver(options.filesDir), audit, telemetry: host.telemetry, ...ruleOptions(host, options.rules) });
  // Ctrl+C cancels the call (and a task the server runs for it); a second one quits at once.
  const stop = new AbortController();
  const interrupted = () => {
    if (stop.signal.aborted) process.exit(130);
    console.error('Cancelling the call (Ctrl+C again quits at once)…');
    stop.abort();
  };
  process.on('SIGINT', interrupted);
  ownedSignals.add('SIGINT');
  try {
    const outcome = await pipeline.call({ server: options.server, tool: options.tool, args, origin: 'cli', signal: stop.signal, keepRaw: options.json }).catch((err: unknown) => {
      if (!(err instanceof AuditWriteError)) throw err;
      return err;
    });
    if (!(outcome instanceof AuditWriteError)) return report(options, outcome, denial);
    // The call ran: its result is shown, then why the run still fails.
    report(options, outcome.outcome, denial);
    console.error(`error: the call ended (${outcome.outcome.kind}), but ${sanitizeLine(outcome.message)} in ${audit.file}.`);
    return Exit.connection;
  } finally {
    process.off('SIGINT', interrupted);
    ownedSignals.delete('SIGINT');
  }
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
    case 'input-required':
    case 'protocol-error':
    case 'timeout':
    case 'failed':
      return Exit.connection;
  }
}

/** Results go to stdout; everything that explains a failure goes to stderr (or the JSON). */
function report(options: Pick<CallCommandOptions, 'server' | 'tool' | 'json' | 'jsonLines'>, outcome: CallOutcome, how: Denial): ExitCode {
  const exitCode = exitCodeOf(outcome);
  const denial = outcome.kind === 'denied' ? deniedText(how, outcome.rule) : undefined;
  if (options.json) {
    // The server's own content blocks and structured result too (secrets masked; control characters escaped below), for a script to read.
    const result = outcome.kind === 'ok' || outcome.kind === 'tool-error' ? { text: outcome.result.text, files: outcome.result.files, durationMs: Math.round(outcome.durationMs), ...serverParts(outcome.raw) } : undefined;
    const message = denial ?? (outcome.kind === 'ok' || outcome.kind === 'tool-error' ? undefined : summarize(outcome));
    const warning = outcome.kind === 'ok' ? outcome.outputWarning : undefined;
    console.log(visibleJson({ server: options.server, tool: options.tool, outcome: outcome.kind, exitCode, result, warning, problems: outcome.kind === 'invalid-arguments' ? outcome.problems.map(problemText) : undefined, message }, options.jsonLines ? undefined : 2));
  } else if (outcome.kind === 'ok' || outcome.kind === 'tool-error') {
    console.log(outcome.result.text);
    if (outcome.kind === 'tool-error') console.error(`${shownName(options.tool)} returned an error (isError).`);
    if (outcome.kind === 'ok' && outcome.outputWarning) console.error(`warning: ${outcome.outputWarning}`);
  } else {
    console.error(denial ?? summarize(outcome));
  }
  return exitCode;
}

/** The result's `content` (when a list) and `structuredContent`, as the server sent them. */
function serverParts(raw: RawToolResult | undefined): { content?: unknown; structuredContent?: unknown } {
  const sent = (raw ?? {}) as { content?: unknown; structuredContent?: unknown };
  return { ...(Array.isArray(sent.content) && { content: sent.content }), ...(sent.structuredContent !== undefined && { structuredContent: sent.structuredContent }) };
}

/** Why nothing was sent: a rule (the approver was never asked), no approval to be had, or the user's no. */
/** `rule`: the rule that denied the call, in words (nobody was asked). */
function deniedText(how: Denial, rule: string | undefined): string {
  if (rule !== undefined) return `not sent: ${sanitizeLine(rule)}`;
  return how.refusedHeadless ? `not sent: denied, approval required: ${how.refusedHeadless}` : 'not sent: denied by the user.';
}

/** Why the audit log cannot be written (its folder made, the file opened for appending, nothing written), or undefined. */
function auditProblem(file: string): string | undefined {
  try {
    makeFolder(path.dirname(file));
    fs.closeSync(fs.openSync(file, 'a'));
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}
