import * as readline from 'node:readline';
import { shownName, visibleJson } from '../core/render/sanitize';
import type { RuleSet } from '../core/policy/ruleSource';
import { CliError, didYouMean, Exit, type ExitCode } from './args';
import { callTool } from './call';
import type { CliHost } from './host';
import { listServers } from './list';

/** The `session` command's options, as parsed from the command line; each `call` in it gets them. */
export interface SessionOptions {
  readonly yes: boolean;
  readonly json: boolean;
  readonly auditFile?: string;
  readonly filesDir?: string;
  readonly rules: RuleSet;
}

export const SESSION_HELP = `commands (one a line; the servers stay running until the session ends):
  servers                          the servers and their state
  tools [SERVER] [--json]          the tools of every (or one) server, as the tools command lists them
  call SERVER TOOL [--json] [JSON] call a tool, as the call command does; JSON (the rest of the
                                   line) is its arguments, an object (default {})
  help                             this text
  quit                             end the session and close every server (so does end of input)
With --json (on the session or the line), each command prints one line of JSON on stdout.`;

const PROMPT = 'mcp> ';
const COMMANDS = ['servers', 'tools', 'call', 'help', 'quit', 'exit'];
/** Why a piped session cannot ask y/N: the stream the answer would come from is its commands. */
const PIPED_HINT = 'a session reads its commands from stdin, so it cannot ask y/N there: start the session with --yes, or run it on a terminal to be asked.';

/**
 * `session`: reads commands line by line from stdin (a terminal, with a prompt, or a pipe) and runs
 * each against the same servers, started when first needed and closed when the session ends (by
 * the caller). A bad line gets one line of error and the session goes on. Returns the worst exit
 * code of its commands (0 when every one succeeded; a higher code is worse).
 */
export async function runSession(host: CliHost, options: SessionOptions): Promise<ExitCode> {
  let worst: ExitCode = Exit.ok;
  for await (const line of process.stdin.isTTY ? terminalLines() : pipedLines()) {
    const { command, json } = words(line);
    if (command === undefined || command.startsWith('#')) continue;
    if (command === 'quit' || command === 'exit') break;
    const jsonOut = options.json || json;
    let code: ExitCode;
    try {
      code = await runLine(host, line, options, jsonOut);
    } catch (err) {
      code = err instanceof CliError ? err.code : Exit.connection;
      const message = err instanceof Error ? err.message : String(err);
      if (jsonOut) console.log(visibleJson({ error: { code, message } }));
      else console.error(err instanceof CliError ? message : `error: ${message}`);
    }
    worst = Math.max(worst, code) as ExitCode;
  }
  return worst;
}

/** One command line: its words before the arguments, and whether it asked for --json. */
function words(line: string): { command?: string; positional: string[]; rest: string; json: boolean } {
  const positional: string[] = [];
  let json = false;
  let rest = line.trim();
  // Words up to the arguments of a call (command, SERVER, TOOL): what follows is its JSON, spaces and all.
  while (rest && positional.length < 3) {
    const word = /^\S+/.exec(rest)![0];
    rest = rest.slice(word.length).trimStart();
    if (word === '--json') json = true;
    else positional.push(word);
  }
  // `call SERVER TOOL --json {...}`: the flag may also come just before the arguments.
  while (/^--json(\s|$)/.test(rest)) {
    json = true;
    rest = rest.slice('--json'.length).trimStart();
  }
  return { command: positional[0], positional: positional.slice(1), rest, json };
}

async function runLine(host: CliHost, line: string, options: SessionOptions, json: boolean): Promise<ExitCode> {
  const { command, positional, rest } = words(line);
  const extra = [...positional, ...(rest ? [rest] : [])];
  switch (command) {
    case 'help':
      if (json) console.log(visibleJson({ help: SESSION_HELP }));
      else console.log(SESSION_HELP);
      return Exit.ok;
    case 'servers':
      if (extra.length > 0) throw new CliError('servers takes nothing more; tools SERVER lists one server\'s tools.');
      return listServers(host, false, json, { jsonLines: true });
    case 'tools': {
      if (extra.length > 1) throw new CliError('tools takes at most SERVER.');
      if (extra[0] !== undefined) knownServer(host, extra[0]);
      return listServers(host, true, json, { server: extra[0], jsonLines: true });
    }
    case 'call': {
      const [server, tool] = positional;
      if (server === undefined || tool === undefined) throw new CliError('call needs SERVER and TOOL (then its arguments as JSON, if any).');
      knownServer(host, server);
      return callTool(host, { server, tool, argsJson: rest || undefined, yes: options.yes, json, jsonLines: true, auditFile: options.auditFile, filesDir: options.filesDir, rules: options.rules, noTerminalHint: PIPED_HINT });
    }
    default:
      throw new CliError(`Unknown command "${shownName(command ?? '')}".${didYouMean(command ?? '', COMMANDS)} Commands: servers, tools, call, help, quit.`);
  }
}

/** A server the session has (the config's, or the one SERVER it was started for). */
function knownServer(host: CliHost, server: string): void {
  if (host.pool.get(server)) return;
  const names = host.pool.connections.map((c) => shownName(c.name)).join(', ') || '(none)';
  throw new CliError(`No server "${shownName(server)}" in this session. Its servers: ${names}.`);
}

/** Lines from a pipe or a file, as they come (buffered while a command runs). */
async function* pipedLines(): AsyncGenerator<string> {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  try {
    yield* rl;
  } finally {
    rl.close();
  }
}

/**
 * Lines typed at a prompt on stderr. Each line has its own reader, closed before the command runs:
 * an approval or a form the command asks reads the terminal itself. Ctrl+D or Ctrl+C at the
 * prompt ends the session.
 */
async function* terminalLines(): AsyncGenerator<string> {
  for (;;) {
    const line = await new Promise<string | undefined>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      let answered = false;
      rl.on('close', () => answered || resolve(undefined));
      rl.on('SIGINT', () => rl.close());
      rl.question(PROMPT, (answer) => {
        answered = true;
        rl.close();
        resolve(answer);
      });
    });
    if (line === undefined) return;
    yield line;
  }
}
