import { parseBrowserCommand } from './browserCommand';
import { LOG_LEVELS, type LogLevel } from '../core/offers/offerTypes';
import { DEFAULT_RATE_LIMIT, type RateLimit } from '../core/policy/rateLimiter';
import { MAX_RESULT_TOKENS, MIN_RESULT_TOKENS } from '../core/chat/resultBudget';

/** The CLI's exit codes; --help documents them and scripts rely on them. */
export const Exit = {
  ok: 0,
  /** The tool ran and returned `isError`. */
  toolError: 1,
  /** Bad command line or configuration: nothing was started. */
  usage: 2,
  /** The call needs approval and none was given (no --yes, no terminal), the user said no, or a rule denies it. */
  approval: 3,
  /** A server did not start, did not finish the handshake, or a request failed. */
  connection: 4,
  /** verify: the servers' tools drifted from the lockfile (a tool added, removed or changed; a server on one side only). */
  drift: 5,
} as const;
export type ExitCode = (typeof Exit)[keyof typeof Exit];

export const USAGE = `usage: mcp-tool-host <command> --config FILE [options]

commands:
  servers                        list the configured servers and their state
  tools [SERVER]                 list the tools of every (or one) server
  call SERVER TOOL [--args JSON] call a tool (asks y/N on a terminal when approval is needed)
  explain SERVER TOOL [--args JSON]
                                 say what a call with these arguments would meet (runs, asks,
                                 denied) and why, without calling (the server is started)
  doctor [SERVER]                explain how each server starts: executable, PATH, node version,
                                 launch line, then each handshake step or the exact failure
  skills [SERVER]                list the skills every (or one) server offers (MCP skills
                                 extension); no file of a skill is read
  skill SERVER NAME [FILE]       load a skill: print its SKILL.md (or FILE), checked against the
                                 server's listing (size, digest, frontmatter); refused if it fails
  resources SERVER [--templates] list the server's resources (every page, within the listing
                                 limits), or its resource templates and their variables
  read SERVER URI [--out FILE]   read a resource (audited): text to stdout, made safe to show;
                                 bytes to --out FILE (or to stdout when it is not a terminal)
  prompts SERVER                 list the server's prompts and their arguments ([optional])
  prompt SERVER NAME [key=value...]
                                 print the prompt's messages as they would be sent to a model,
                                 invisible and control characters written as \\uXXXX escapes
  install-bundle FILE [--name N] [--set KEY=value...] [--sandbox]
                                 install an MCP Bundle (.mcpb) into the --config file (created
                                 when missing, other content kept): checks its signature and
                                 manifest, prints what will run and what the bundle claims, asks
                                 y/N on a terminal (--yes without one), unpacks it under
                                 $XDG_DATA_HOME/mcp-tool-host/bundles (~/.local/share without it).
                                 --set gives a value of its user_config; a secret one is read from
                                 an environment variable: \${env:KEY in upper case}, or --set KEY=VAR.
                                 --sandbox runs it in a sandbox (no writes, no network)
  complete SERVER (--prompt NAME | --template URI) ARG VALUE
                                 the server's completions for a prompt argument or a resource
                                 template variable, one a line (none is not an error)
  search [QUERY] [--registry URL] [--cursor C]
                                 find servers in the MCP Registry (latest versions; all of them
                                 for no QUERY): what each runs, or why it cannot be installed
  add NAME --config FILE [--version V] [--name N] [--set VAR=value]... [--replace] [--sandbox] [--yes]
                                 install the registry's server NAME (io.github.user/server) into
                                 FILE: prints what will run and the registry's claims, asks y/N on
                                 a terminal (--yes elsewhere), keeps the rest of the file. Secrets
                                 are written as \${env:VAR}, never their values: export VAR. A
                                 bundle (mcpb) is downloaded, checked against the registry's
                                 sha256, and installed as install-bundle installs one
  login SERVER                   sign in to a remote server now (on a terminal, or with --browser)
                                 and keep the sign-in: later runs, with or without a terminal, use
                                 it (and renew it) without a browser
  logout SERVER                  forget the server's sign-in, in the keychain and in the file
  auth status                    for each remote server of --config: signed in or not, where the
                                 sign-in is kept, when its token expires if known (never a token).
                                 Kept in the keychain (macOS, Windows, Linux's Secret Service),
                                 else in $XDG_STATE_HOME/mcp-tool-host/auth/credentials.json
                                 (~/.local/state without it), readable by you alone;
                                 MCP_TOOL_HOST_CREDENTIALS=keychain or =file picks one
  serve [--http [--port N]] [--tools all|search] [--rate-limit PER_SECOND[/BURST]] [--result-tokens N|off]
                                 be one MCP server that offers the tools of every configured
                                 server, each call through the policy (rules, approvals, pins,
                                 rate limits, masking, audit) with origin "gateway": stdio by
                                 default (nothing but MCP on stdout), or Streamable HTTP on
                                 127.0.0.1 with a random token (the URL is printed on stderr).
                                 A call that needs approval asks the client (elicitation), or is
                                 denied with the reason. --tools search offers only search_tools
                                 and call_tool. A tool that changed since it was pinned is listed
                                 as withheld and not called (pins accept), and an accept in
                                 another terminal tells the clients at once. A server's forms and
                                 sampling requests during a call go to the client that made it.
                                 Runs until stdin ends (stdio), SIGINT or SIGTERM
  pins [SERVER]                  each tool against the definition pinned for it (trust on first
                                 use: serve pins each tool when it first lists it): pinned,
                                 changed (with a diff of pinned and now, escapes visible), not
                                 pinned yet, or gone. Kept in $XDG_STATE_HOME/mcp-tool-host/pins.json
  pins accept SERVER [TOOL]      pin the current definition of TOOL (or of every tool of SERVER):
                                 shows the diff, asks y/N on a terminal (--yes without one). A
                                 tool that changed is withheld by serve until accepted
  lock [--out FILE]              start every server and write its tools' definitions and pin hashes
                                 to a lockfile a team commits and reviews (sorted, canonical JSON,
                                 "lockfileVersion": 1). Default: mcp-tools.lock.json beside the
                                 config (for .vscode/mcp.json, in the folder above .vscode). A server
                                 that does not start is an error naming it; nothing is written
  verify [--lock FILE]           check every server's tools against the lockfile (for CI): exit 0
                                 when all match, 5 on drift (a tool added, removed or changed, with
                                 a diff of each changed part; a server configured but not locked,
                                 or locked but not configured), 4 when a server did not start, 2
                                 when the lockfile is missing or not a lockfile
  session [SERVER]               run commands read from stdin, one a line, against servers started
                                 once and closed at quit or end of input:
                                   tools [SERVER] [--json]    as the tools command
                                   call SERVER TOOL [JSON]    as the call command (JSON: arguments)
                                   servers, help, quit
                                 On a terminal it prompts and asks y/N as call does; from a pipe
                                 it cannot ask (stdin is its commands): --yes approves. A bad line
                                 gets one line of error and the session goes on. With --json each
                                 command prints one line of JSON. Exit code: its commands' worst

options:
  --config FILE      servers as {"servers": {...}}, VS Code's .vscode/mcp.json,
                     Claude Desktop / Cursor / .mcp.json {"mcpServers": {...}}, or a settings.json
                     with "mcpToolHost.servers" (comments and trailing commas are fine)
  --args JSON        the tool's arguments, a JSON object (default {})
  --yes              approve calls that need approval (destructive or open-world tools, ask
                     rules); never a call a rule denies
  --rules FILE       argument rules (allow, ask, deny) for call, explain and session, as a JSON
                     list (or {"rules": [...]}); repeatable. A file that cannot be read or has a bad
                     rule stops the command (exit 2). Also read: the policy file
                     /etc/mcp-tool-host/rules.json (%ProgramData% on Windows) and the file
                     $MCP_TOOL_HOST_POLICY_FILE names, and "mcpToolHost.rules" in
                     ./.vscode/settings.json (asks and denies only)
  --trust-config     the config file is yours: trust its servers' tool hints even though a
                     repository carries it (.vscode/mcp.json, .mcp.json, a file in a git work tree)
  --json             machine-readable output on stdout (errors too: {"error": ...})
  --templates        resources: list the resource templates instead
  --out FILE         read: write the resource's contents (text and bytes) to FILE;
                     lock: where the lockfile is written
  --lock FILE        verify: the lockfile to check against (default as lock writes it)
  --audit FILE       where \`call\` and \`read\` append its audit record (JSON lines; default
                     $XDG_STATE_HOME/mcp-tool-host/audit.jsonl, ~/.local/state without it)
  --files DIR        where \`call\` saves images, audio and blobs, and keeps them (at most 256 MiB
                     a run; a type that runs scripts, such as HTML or SVG, as .txt). Without it
                     they are described, not saved
  --timeout SECONDS  how long a server may take to answer "initialize" (default 30)
  --elicitation ask|decline|defaults
                     when a server asks for input during a call: ask on a terminal and decline
                     elsewhere (ask, the default), always decline, or accept the form's defaults
  --browser COMMAND  the program that opens a server's sign-in page (OAuth), run without a shell
                     with the URL as its last argument (or in place of %s); works without a
                     terminal too. Default: the BROWSER environment variable, else the system
                     browser on a terminal
  --prompt NAME, --template URI
                     what \`complete\` completes: a prompt's argument or a template's variable
  --registry URL     the registry search and add read (default https://registry.modelcontextprotocol.io,
                     or MCP_TOOL_HOST_REGISTRY); a policy file's "registryUrl" pins it
  --set VAR=value    add: the value of a declared variable, argument or header (repeatable)
  --sandbox          add and install-bundle: run the server in a sandbox that lets it reach only
                     what its package needs (npm, PyPI, a bundle); refused where this machine
                     cannot sandbox (Linux: bubblewrap, socat, ripgrep; macOS)
  --log-level LEVEL  ask each server for its log messages at LEVEL and above (debug, info, notice,
                     warning, error, critical, alert, emergency; 2025: logging/setLevel,
                     2026-07-28: sent with each request) and print them on stderr as they come
  --http, --port N   serve: Streamable HTTP on 127.0.0.1 (port N, default any free one)
  --tools all|search serve: every tool (default), or search_tools and call_tool only
  --rate-limit PER_SECOND[/BURST]
                     serve: the calls each server may get, a second (at least 0.1) after a burst
                     of BURST at once (a whole number; default 20, or PER_SECOND when higher),
                     as VS Code's mcpToolHost.rateLimit.perSecond and .burst; over it a call is
                     refused with "Too many calls" and nothing is sent. Default 10/20
  --result-tokens N|off
                     serve: the tokens one tool result may put before the client's model
                     (500 to 1000000, default 10000; a server's resultTokens and
                     toolResultTokens in the config win); a longer result gives its head, its
                     size and a handle the read-result tool reads on with. off: results whole
  -h, --help         this text
  --                 every word after it is a SERVER or TOOL name, even one starting with "-"

exit codes:
  0  ok
  1  the tool returned isError
  2  usage or config error
  3  approval required, or denied by the user or a rule (nothing was sent)
  4  connection or protocol error
  5  verify: the tools drifted from the lockfile`;

/** What a usage error ends with: where the help is, not the help itself (one wrong word, one line about it). */
export const HELP_HINT = 'Run mcp-tool-host --help for usage.';

/**
 * A problem with how the CLI was called or configured; exits with `code` (2 unless said otherwise).
 * `pointsToHelp`: a usage error, whose message is followed by HELP_HINT.
 */
export class CliError extends Error {
  constructor(message: string, readonly code: ExitCode = Exit.usage, readonly pointsToHelp = false) {
    super(message);
    this.name = 'CliError';
  }
}

/** " Did you mean --config?" when `word` is one or two typos away from exactly one of `known`, else "". */
export function didYouMean(word: string, known: Iterable<string>): string {
  const near = [...known].filter((k) => k.length > 2 && editDistance(word.toLowerCase(), k) <= Math.min(2, k.length >> 2 || 1));
  return near.length === 1 ? ` Did you mean ${near[0]}?` : '';
}

/** Levenshtein distance (insertions, deletions, substitutions), for short words. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

export interface CliArgs {
  readonly command: string | undefined;
  readonly positional: readonly string[];
  readonly config?: string;
  readonly args?: string;
  readonly yes: boolean;
  readonly trustConfig: boolean;
  readonly audit?: string;
  /** Where `call` saves binary content and keeps it (--files); without it nothing is saved. */
  readonly files?: string;
  readonly json: boolean;
  readonly help: boolean;
  readonly timeoutSeconds?: number;
  /** How a server's request for input during a call is answered (see --elicitation). */
  readonly elicitation: ElicitationMode;
  /** The program that opens a sign-in page (--browser), as written; checked here. */
  readonly browser?: string;
  /** Rules files the user named (--rules, repeatable), in order. */
  readonly rules: readonly string[];
  /** `resources --templates`: the resource templates instead of the resources. */
  readonly templates: boolean;
  /** `read --out FILE`: where the resource's contents are written; `lock --out FILE`: where the lockfile is. */
  readonly out?: string;
  /** `verify --lock FILE`: the lockfile checked against. */
  readonly lock?: string;
  /** What `complete` completes (--prompt NAME or --template URI). */
  readonly prompt?: string;
  readonly template?: string;
  /** The servers' log level for this run (--log-level); their messages go to stderr. */
  readonly logLevel?: LogLevel;
  /** search and add: the registry's base URL (--registry). */
  readonly registry?: string;
  /** search: the page after the one that gave this cursor. */
  readonly cursor?: string;
  /** add and install-bundle: the server's version (add: default its latest), the name to write it under, the values it asks for (--set, in order), and whether an entry of that name is replaced. */
  readonly version?: string;
  readonly name?: string;
  readonly set: readonly string[];
  readonly replace: boolean;
  /** add and install-bundle: write the sandbox for what runs it into the entry. */
  readonly sandbox: boolean;
  /** serve: over Streamable HTTP (--http) on --port, and which tools it offers (--tools). */
  readonly http: boolean;
  readonly port?: number;
  readonly tools?: 'all' | 'search';
  /** serve: the calls each server may get (--rate-limit PER_SECOND[/BURST]); none: the core's default. */
  readonly rateLimit?: RateLimit;
  /** serve: the default budget of a tool result in tokens (--result-tokens N), 'off', or none: the default. */
  readonly resultTokens?: number | 'off';
}

export type ElicitationMode = 'ask' | 'decline' | 'defaults';

const BOOLEAN_FLAGS = new Set(['--yes', '--trust-config', '--json', '--help', '-h', '--templates', '--replace', '--sandbox', '--http']);
const VALUE_FLAGS = new Set(['--config', '--args', '--timeout', '--audit', '--files', '--elicitation', '--browser', '--rules', '--out', '--lock', '--prompt', '--template', '--log-level', '--registry', '--cursor', '--version', '--name', '--set', '--port', '--rate-limit', '--tools', '--result-tokens']);
/** Flags that may be given more than once; every value counts (other flags: the last one). */
const REPEATED_FLAGS = new Set(['--rules', '--set']);

/**
 * Parses argv (without node and the script); `--flag=value` and `--flag value` both work, and
 * after `--` every word is positional (a tool named `-x`: `call demo -- -x`).
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const booleans = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq > 0) throw new CliError(`${name} takes no value.`, Exit.usage, true);
      booleans.add(name);
    } else if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new CliError(`${name} needs a value.`, Exit.usage, true);
      values.set(name, value);
      if (REPEATED_FLAGS.has(name)) repeated.set(name, [...(repeated.get(name) ?? []), value]);
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new CliError(`Unknown option "${arg}".${didYouMean(name, [...VALUE_FLAGS, ...BOOLEAN_FLAGS])}`, Exit.usage, true);
    } else {
      positional.push(arg);
    }
  }
  const timeoutText = values.get('--timeout');
  const timeoutSeconds = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeoutSeconds !== undefined && !(timeoutSeconds > 0)) throw new CliError(`--timeout must be a positive number of seconds, not "${timeoutText}".`, Exit.usage, true);
  const elicitation = values.get('--elicitation') ?? 'ask';
  if (elicitation !== 'ask' && elicitation !== 'decline' && elicitation !== 'defaults') throw new CliError(`--elicitation must be ask, decline or defaults, not "${elicitation}".`, Exit.usage, true);
  const browser = values.get('--browser');
  if (browser !== undefined) {
    try {
      parseBrowserCommand(browser, '--browser');
    } catch (err) {
      throw new CliError((err as Error).message, Exit.usage, true);
    }
  }
  const logLevel = values.get('--log-level');
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new CliError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}".`, Exit.usage, true);
  const portText = values.get('--port');
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new CliError(`--port must be a port number (0 to 65535), not "${portText}".`, Exit.usage, true);
  const tools = values.get('--tools');
  if (tools !== undefined && tools !== 'all' && tools !== 'search') throw new CliError(`--tools must be all or search, not "${tools}".`, Exit.usage, true);
  const rateText = values.get('--rate-limit');
  const rateLimit = rateText === undefined ? undefined : parseRateLimit(rateText);
  const budgetText = values.get('--result-tokens');
  const resultTokens = budgetText === undefined || budgetText === 'off' ? budgetText : Number(budgetText);
  if (typeof resultTokens === 'number' && !(Number.isInteger(resultTokens) && resultTokens >= MIN_RESULT_TOKENS && resultTokens <= MAX_RESULT_TOKENS)) {
    throw new CliError(`--result-tokens must be a whole number of tokens from ${MIN_RESULT_TOKENS} to ${MAX_RESULT_TOKENS}, or off, not "${budgetText}".`, Exit.usage, true);
  }
  const [command, ...rest] = positional;
  return {
    elicitation,
    command,
    positional: rest,
    config: values.get('--config'),
    args: values.get('--args'),
    audit: values.get('--audit'),
    files: values.get('--files'),
    yes: booleans.has('--yes'),
    trustConfig: booleans.has('--trust-config'),
    json: booleans.has('--json'),
    help: booleans.has('--help') || booleans.has('-h'),
    timeoutSeconds,
    browser,
    rules: repeated.get('--rules') ?? [],
    templates: booleans.has('--templates'),
    out: values.get('--out'),
    lock: values.get('--lock'),
    prompt: values.get('--prompt'),
    template: values.get('--template'),
    logLevel: logLevel as LogLevel | undefined,
    registry: values.get('--registry'),
    cursor: values.get('--cursor'),
    version: values.get('--version'),
    name: values.get('--name'),
    set: repeated.get('--set') ?? [],
    replace: booleans.has('--replace'),
    sandbox: booleans.has('--sandbox'),
    http: booleans.has('--http'),
    port,
    tools,
    rateLimit,
    resultTokens,
  };
}

/** The settings' least values (mcpToolHost.rateLimit.perSecond and .burst): a server may always get a call now and then. */
const MIN_PER_SECOND = 0.1;
const MIN_BURST = 1;

/** `--rate-limit PER_SECOND[/BURST]` as a RateLimit; a bad value is a usage error that says what is wrong. */
export function parseRateLimit(text: string): RateLimit {
  const wrong = (why?: string) => new CliError(`--rate-limit must be PER_SECOND[/BURST]: calls a second a server may get (at least ${MIN_PER_SECOND}), then how many it may get at once (a whole number, at least ${MIN_BURST}), not "${text}"${why ? `: ${why}` : ''}.`, Exit.usage, true);
  const match = /^([^/]+)(?:\/([^/]+))?$/.exec(text.trim());
  const number = (t: string | undefined) => (t === undefined ? undefined : /^(\d+(\.\d*)?|\.\d+)$/.test(t.trim()) ? Number(t) : NaN);
  const perSecond = number(match?.[1]);
  const burst = number(match?.[2]);
  if (perSecond === undefined || !Number.isFinite(perSecond) || (burst !== undefined && !Number.isFinite(burst))) throw wrong();
  if (perSecond < MIN_PER_SECOND) throw wrong(`the rate is below ${MIN_PER_SECOND}`);
  if (burst === undefined) return { perSecond, burst: Math.max(DEFAULT_RATE_LIMIT.burst, Math.ceil(perSecond)) };
  if (burst < MIN_BURST) throw wrong(`the burst is below ${MIN_BURST}`);
  if (!Number.isInteger(burst)) throw wrong('the burst is not a whole number');
  return { perSecond, burst };
}
