import { CliError, didYouMean, Exit, type CliArgs } from './args';

// The checks of a command line that need nothing but the command line: main.ts runs them before it
// spawns a server early (earlyLaunch.ts), and commands.ts before anything else, so both refuse the
// same mistakes, in the same order, before anything runs.

export const COMMANDS = new Set(['servers', 'tools', 'call', 'explain', 'doctor', 'skills', 'skill', 'session', 'serve', 'resources', 'read', 'prompts', 'prompt', 'complete', 'search', 'add', 'install-bundle', 'login', 'logout', 'auth', 'pins', 'lock', 'verify']);
/** The commands that read a registry and start no server. */
const REGISTRY = new Set(['search', 'add']);
/** The commands that decide calls, and so read argument rules (a session's calls too). */
export const RULED = new Set(['call', 'explain', 'session', 'serve']);

/** A command line that passed its checks: what it is about. */
export interface CheckedCommand {
  readonly command: string;
  readonly server: string | undefined;
  readonly tool: string | undefined;
  /** `pins accept SERVER [TOOL]`. */
  readonly accepting: boolean;
  /** A command that reads no --config servers (logout without one, install-bundle, search, add): it runs on its own now. */
  readonly runsAlone?: boolean;
}

/** Every check of a command line alone; a mistake is a CliError (exit 2). */
export function checkCommandLine(args: CliArgs & { readonly command: string }): CheckedCommand {
  const command = args.command;
  if (!COMMANDS.has(command)) throw new CliError(`Unknown command "${command}".${didYouMean(command, COMMANDS)}`, Exit.usage, true);
  // `pins accept SERVER [TOOL]` is about SERVER, as `pins SERVER` is.
  const accepting = command === 'pins' && args.positional[0] === 'accept';
  const [server, tool] = accepting ? args.positional.slice(1) : args.positional;
  if (command === 'pins' && (accepting ? !server || args.positional.length > 3 : tool !== undefined)) throw new CliError('pins takes at most SERVER (its pins), or accept SERVER [TOOL].', Exit.usage, true);
  if (!RULED.has(command) && args.rules.length > 0) throw new CliError(`--rules is for call and explain, not ${command}.`, Exit.usage, true);
  if (command === 'skill' && (!server || !tool)) throw new CliError('skill needs SERVER and NAME.', Exit.usage, true);
  if (command === 'session' && tool) throw new CliError('session takes at most SERVER; its commands come from stdin, one a line.', Exit.usage, true);
  if (command === 'session' && args.args !== undefined) throw new CliError('--args is for call and explain; in a session, a call\'s arguments follow its TOOL on the line.', Exit.usage, true);
  if (command === 'resources' && !server) throw new CliError('resources needs SERVER.', Exit.usage, true);
  if (command === 'read' && (!server || !tool)) throw new CliError('read needs SERVER and URI.', Exit.usage, true);
  if (args.templates && command !== 'resources') throw new CliError(`--templates is for resources, not ${command}.`, Exit.usage, true);
  if (args.out !== undefined && command !== 'read' && command !== 'lock') throw new CliError(`--out is for read and lock, not ${command}.`, Exit.usage, true);
  if (args.lock !== undefined && command !== 'verify') throw new CliError(`--lock is for verify, not ${command}.`, Exit.usage, true);
  if ((command === 'lock' || command === 'verify') && server !== undefined) throw new CliError(`${command} takes no SERVER: a lockfile holds every server of --config.`, Exit.usage, true);
  if ((command === 'prompts' || command === 'prompt' || command === 'complete') && !server) throw new CliError(`${command} needs SERVER.`, Exit.usage, true);
  if (command === 'prompts' && tool) throw new CliError('prompts takes only SERVER; prompt SERVER NAME gets one.', Exit.usage, true);
  if (command === 'prompt' && !tool) throw new CliError('prompt needs SERVER and NAME (then its arguments as name=value).', Exit.usage, true);
  if (command === 'complete' && (args.prompt === undefined) === (args.template === undefined)) throw new CliError('complete needs one of --prompt NAME or --template URI.', Exit.usage, true);
  if (command === 'complete' && args.positional.length !== 3) throw new CliError('complete needs SERVER, ARG and VALUE (an empty VALUE: "").', Exit.usage, true);
  if (command !== 'complete' && (args.prompt !== undefined || args.template !== undefined)) throw new CliError('--prompt and --template are for complete.', Exit.usage, true);
  if (command === 'login' && (!server || tool)) throw new CliError('login needs one SERVER, a remote (http) server of the --config file.', Exit.usage, true);
  if (command === 'logout' && (!server || tool)) throw new CliError('logout needs one SERVER.', Exit.usage, true);
  if (command === 'auth' && (server !== 'status' || tool)) throw new CliError('auth takes one command: auth status.', Exit.usage, true);
  if (command === 'logout' && !args.config) return { command, server, tool, accepting, runsAlone: true };
  if (command !== 'serve' && (args.http || args.port !== undefined || args.tools !== undefined || args.rateLimit !== undefined || args.resultTokens !== undefined)) throw new CliError('--http, --port, --tools, --rate-limit and --result-tokens are for serve.', Exit.usage, true);
  if (command === 'serve' && server) throw new CliError('serve takes no SERVER: it offers every server of --config.', Exit.usage, true);
  if (command === 'serve' && args.port !== undefined && !args.http) throw new CliError('--port is for serve --http.', Exit.usage, true);
  if (command === 'servers' && server) throw new CliError('servers takes no SERVER; use tools SERVER or doctor SERVER.', Exit.usage, true);
  if (command === 'install-bundle') {
    for (const [flag, given] of [['--registry', args.registry !== undefined], ['--cursor', args.cursor !== undefined], ['--version', args.version !== undefined], ['--replace', args.replace]] as const) {
      if (given) throw new CliError(`${flag} is not for install-bundle.`, Exit.usage, true);
    }
    // The config is written, not read for servers to start: it may not exist yet.
    if (!server || tool) throw new CliError('install-bundle needs one FILE, a .mcpb bundle.', Exit.usage, true);
    if (!args.config) throw new CliError('--config FILE is required: the bundle is installed into it.', Exit.usage, true);
    return { command, server, tool, accepting, runsAlone: true };
  }

  const registryOnly = (flag: string, given: boolean, commands: string) => {
    if (given && !REGISTRY.has(command)) throw new CliError(`${flag} is for ${commands}, not ${command}.`, Exit.usage, true);
  };
  registryOnly('--registry', args.registry !== undefined, 'search and add');
  registryOnly('--cursor', args.cursor !== undefined && command !== 'add', 'search');
  for (const [flag, given] of [['--version', args.version !== undefined], ['--replace', args.replace]] as const) {
    if (given && command !== 'add') throw new CliError(`${flag} is for add, not ${command}.`, Exit.usage, true);
  }
  for (const [flag, given] of [['--name', args.name !== undefined], ['--set', args.set.length > 0], ['--sandbox', args.sandbox]] as const) {
    if (given && command !== 'add') throw new CliError(`${flag} is for add and install-bundle, not ${command}.`, Exit.usage, true);
  }
  if (REGISTRY.has(command) && (args.args !== undefined || args.audit !== undefined || args.files !== undefined || args.trustConfig)) throw new CliError(`--args, --audit, --files and --trust-config are not for ${command}.`, Exit.usage, true);
  if (command === 'search') {
    if (args.positional.length > 1) throw new CliError('search takes one QUERY (quote it when it has spaces).', Exit.usage, true);
    return { command, server, tool, accepting, runsAlone: true };
  }
  if (command === 'add') {
    if (args.cursor !== undefined) throw new CliError('--cursor is for search, not add.', Exit.usage, true);
    if (!server || tool !== undefined) throw new CliError('add needs one NAME: the registry\'s name of the server (io.github.user/server; mcp-tool-host search finds it).', Exit.usage, true);
    return { command, server, tool, accepting, runsAlone: true };
  }
  if ((command === 'call' || command === 'explain') && (!server || !tool)) throw new CliError(`${command} needs SERVER and TOOL.`, Exit.usage, true);
  return { command, server, tool, accepting };
}
