import { CliError, didYouMean, Exit, type CliArgs, type ExitCode } from './args';
import { failure } from './failure';
import type * as RegistryAdd from './registryAdd';
import type * as RegistryCommands from './registryCommands';
import type * as InstallBundle from './installBundle';
import { callTool } from './call';
import { readCliRules } from './cliRules';
import { explainCall } from './explain';
import { loadConfig, selectServers } from './config';
import { doctor } from './doctor';
import { cliElicitor } from './elicit';
import { browserOpener } from './elicitUrl';
import { createHost } from './host';
import { listServers } from './list';
import { runSession } from './session';
import { serve } from './serve';
import { acceptPins, listPins } from './pinsCommands';
import { lockCommand, verifyCommand } from './lockCommands';
import { loadGateway } from '../core/gateway/load';
import { listSkills, readSkill } from './skillCommands';
import { listResources, readResourceCommand } from './resourceCommands';
import { complete, getPrompt, listPrompts } from './promptCommands';
import { authStatus, login, loginCommand, logout } from './authCommands';
import { everyCredentialStore, lazySecretStore, openCredentialStore, type CredentialStore } from './credentialStore';

/**
 * The registry and install commands, loaded when one runs: they bring the bundle code (archives,
 * signatures: node-forge), whose start-up every other command would pay for.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const registryAdd = () => require('./registryAdd') as typeof RegistryAdd;
const registryCommands = () => require('./registryCommands') as typeof RegistryCommands;
const installBundles = () => require('./installBundle') as typeof InstallBundle;
/* eslint-enable @typescript-eslint/no-require-imports */

const VERSION = '0.1.0';
const COMMANDS = new Set(['servers', 'tools', 'call', 'explain', 'doctor', 'skills', 'skill', 'session', 'serve', 'resources', 'read', 'prompts', 'prompt', 'complete', 'search', 'add', 'install-bundle', 'login', 'logout', 'auth', 'pins', 'lock', 'verify']);
/** The commands that read a registry and start no server. */
const REGISTRY = new Set(['search', 'add']);
/** The commands that decide calls, and so read argument rules (a session's calls too). */
const RULED = new Set(['call', 'explain', 'session', 'serve']);

/**
 * Runs a parsed command line that names a command (main.ts printed the help otherwise); a failure
 * is said here, in this bundle's own terms (its CliError), and becomes the exit code.
 */
export async function runCommand(args: CliArgs & { readonly command: string }): Promise<ExitCode> {
  try {
    return await main(args);
  } catch (err) {
    return failure(err, args.json);
  }
}

/** The headless CLI: the same core as the extension, in a terminal. Exit codes: see USAGE. */
async function main(args: CliArgs & { readonly command: string }): Promise<ExitCode> {
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
  if (command === 'logout' && !args.config) return logout(server!, await everyCredentialStore());
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
    return installBundles().installBundle({ file: server, config: args.config, name: args.name, set: args.set, yes: args.yes, sandbox: args.sandbox });
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
    return registryCommands().searchCommand({ query: server ?? '', registry: args.registry, cursor: args.cursor, json: args.json });
  }
  if (command === 'add') {
    if (args.cursor !== undefined) throw new CliError('--cursor is for search, not add.', Exit.usage, true);
    if (!server || tool !== undefined) throw new CliError('add needs one NAME: the registry\'s name of the server (io.github.user/server; mcp-tool-host search finds it).', Exit.usage, true);
    return registryAdd().addCommand({ name: server, registry: args.registry, version: args.version, config: args.config, serverName: args.name, set: args.set, replace: args.replace, sandbox: args.sandbox, yes: args.yes, json: args.json });
  }
  if ((command === 'call' || command === 'explain') && (!server || !tool)) throw new CliError(`${command} needs SERVER and TOOL.`, Exit.usage, true);
  const config = loadConfig(args.config, { trust: args.trustConfig });
  for (const w of config.warnings) console.error(`config: warning: ${w}`);
  // `auth status` is about every server; `logout` with a config checks the name is one of its servers.
  const selected = selectServers(config, command === 'auth' ? undefined : server);
  // Entries we are not asked about only get a mention; the one asked for fails in selectServers.
  if (server === undefined) for (const e of config.errors) console.error(`config: ${e.message}`);
  // A lockfile holds every server of the config: one that cannot be read would be left out of it (or go unchecked).
  if ((command === 'lock' || command === 'verify') && config.errors.length > 0) throw new CliError(`Nothing ${command === 'lock' ? 'locked' : 'verified'}: ${config.errors.length === 1 ? 'an entry' : `${config.errors.length} entries`} of ${config.file} cannot be used (above).`);
  // Rules are read before any server starts: a rules file the user named that is broken stops here.
  // The workspace is the current directory, as for ${workspaceFolder} (host.ts).
  const rules = RULED.has(command) ? readCliRules(args.rules, process.cwd()) : undefined;
  for (const w of rules?.warnings ?? []) console.error(`rules: warning: ${w}`);

  // One browser command for sign-in pages and for links a server asks to open.
  const browser = { flag: args.browser, env: process.env.BROWSER };
  // Sign-ins are kept (keychain, else a file of the user's) and opened only when a server asks for one.
  let credentials: Promise<CredentialStore> | undefined;
  const store = () => (credentials ??= openCredentialStore());
  const signIn = { secrets: lazySecretStore(store), ...(command !== 'login' && { loginCommand: (name: string) => loginCommand(name, config.file) }) };
  // The gateway passes a server's forms and log messages during a call to the client that made it.
  const relay = command === 'serve' ? new (loadGateway().BackendRelay)((line) => console.error(line)) : undefined;
  const host = createHost(selected, { clientVersion: VERSION, handshakeTimeoutMs: args.timeoutSeconds === undefined ? undefined : args.timeoutSeconds * 1000, elicit: relay?.elicit ?? cliElicitor(args.elicitation, browserOpener(browser)), sample: relay?.sample, logOf: relay && ((name, log) => relay.logFor(name, log)), browser, serverMessages: args.logLevel !== undefined, signIn });
  // Kept by each connection and applied when it starts, before anything else is asked.
  if (args.logLevel) for (const c of host.pool.connections) void c.setLogLevel(args.logLevel);
  try {
    let code: ExitCode;
    switch (command) {
      case 'servers':
      case 'tools':
        code = await listServers(host, command === 'tools', args.json);
        break;
      case 'doctor':
        code = await doctor(host, args.json);
        break;
      case 'skills':
        code = await listSkills(host, args.json);
        break;
      case 'skill':
        code = await readSkill(host, server!, tool!, args.positional[2], args.json);
        break;
      case 'resources':
        code = await listResources(host, server!, args.templates, args.json);
        break;
      case 'read':
        code = await readResourceCommand(host, { server: server!, uri: tool!, json: args.json, out: args.out, auditFile: args.audit });
        break;
      case 'prompts':
        code = await listPrompts(host, server!, args.json);
        break;
      case 'prompt':
        code = await getPrompt(host, { server: server!, name: tool!, pairs: args.positional.slice(2), json: args.json, auditFile: args.audit });
        break;
      case 'complete': {
        const ref = args.prompt !== undefined ? { type: 'ref/prompt' as const, name: args.prompt } : { type: 'ref/resource' as const, uri: args.template! };
        code = await complete(host, { server: server!, ref, argument: args.positional[1], value: args.positional[2], json: args.json });
        break;
      }
      case 'explain':
        code = await explainCall(host, { server: server!, tool: tool!, argsJson: args.args, json: args.json, rules: rules!.set });
        break;
      case 'login':
        code = await login(host, server!, await store());
        break;
      case 'logout':
        code = await logout(server!, await everyCredentialStore());
        break;
      case 'auth':
        code = await authStatus(host, await store(), args.json);
        break;
      case 'pins':
        code = accepting ? await acceptPins(host, server!, tool, args.yes) : await listPins(host, config.file, args.json);
        break;
      case 'lock':
        code = await lockCommand(host, { configFile: config.file, out: args.out, json: args.json });
        break;
      case 'verify':
        code = await verifyCommand(host, { configFile: config.file, lock: args.lock, json: args.json });
        break;
      case 'serve':
        code = await serve(host, { configFile: config.file, http: args.http, port: args.port, tools: args.tools ?? 'all', rules: rules!.set, auditFile: args.audit, clientVersion: VERSION, relay, rateLimit: args.rateLimit, resultTokens: args.resultTokens });
        break;
      case 'session':
        code = await runSession(host, { yes: args.yes, json: args.json, auditFile: args.audit, filesDir: args.files, rules: rules!.set });
        break;
      default:
        code = await callTool(host, { server: server!, tool: tool!, argsJson: args.args, yes: args.yes, json: args.json, auditFile: args.audit, filesDir: args.files, rules: rules!.set });
    }
    // Broken entries beside working ones still make the run a config error, unless worse happened.
    return code === Exit.ok && server === undefined && config.errors.length > 0 ? Exit.usage : code;
  } finally {
    await host.close();
  }
}
