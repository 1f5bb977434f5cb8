import { CallPipeline } from '../core/calls/callPipeline';
import type { Approver, CallSink } from '../core/calls/ports';
import { sanitizeLine, shownName, visibleJson } from '../core/render/sanitize';
import type { RuleSet } from '../core/policy/ruleSource';
import { Exit, type ExitCode } from './args';
import { parseArgsJson } from './argsJson';
import { ruleOptions, startForTool } from './call';
import type { CliHost } from './host';
import { withoutNullOptionals } from '../core/tools/nullArguments';
import { problemText } from '../core/tools/schemaProblems';

/** Nothing is asked or sent while explaining; a pipeline that tried would be a bug. */
const NEVER_ASKED: Approver = {
  approve: () => Promise.reject(new Error('explain asked for approval')),
};
const SILENT: CallSink = { begin: () => undefined, line: () => undefined, end: () => undefined, progress: () => undefined };

/**
 * `explain`: what `call` with the same words would meet (runs, asks, denied) and why, in the
 * sentence the audit log would record, from the same rules, annotations and trust. The server is
 * started (its tool definitions decide too); no tool is called.
 */
export async function explainCall(host: CliHost, options: { server: string; tool: string; argsJson: string | undefined; json: boolean; rules: RuleSet }): Promise<ExitCode> {
  const args = parseArgsJson(options.argsJson);
  const connection = await startForTool(host, options.server, options.tool);
  if ('failed' in connection) {
    if (options.json) console.log(visibleJson({ error: { code: Exit.connection, message: connection.failed } }, 2));
    else console.error(`error: ${connection.failed}`);
    return Exit.connection;
  }
  const pipeline = new CallPipeline(host.pool, host.validator, NEVER_ASKED, SILENT, ruleOptions(host, options.rules));
  // `call` checks the arguments against the tool's schema before anything else: so does its forecast.
  const found = host.pool.findTool(options.server, options.tool);
  const problems = found ? pipeline.validateArguments(found.tool, withoutNullOptionals(found.tool.inputSchema, args).args).problems : [];
  const forecast = problems.length > 0 ? { kind: 'denied' as const, sentence: `the arguments do not match the tool's input schema: ${problems.map(problemText).join('; ')}` } : pipeline.forecast({ server: options.server, tool: options.tool, args });
  const sentence = sanitizeLine(forecast.sentence);
  if (options.json) console.log(visibleJson({ server: options.server, tool: options.tool, forecast: forecast.kind, sentence }, 2));
  else console.log(`${shownName(options.server)}/${shownName(options.tool)} ${WORDS[forecast.kind]}: ${sentence.replace(/^asks: /, '')}`);
  return Exit.ok;
}

const WORDS = { runs: 'would run', asks: 'would ask first (--yes to allow)', denied: 'would not be sent', unknown: 'cannot be told' } as const;
