import { CliError, Exit, type CliArgs, type ExitCode } from './args';
import { checkCommandLine, RULED } from './usage';
import type { EarlyLaunch } from './earlyLaunch';
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
import { createHost, type CliHost } from './host';
import { cliWorkspace } from './workspace';
import { exitOnStopSignals, ownedSignals } from './signalOwners';
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

/**
 * Runs a parsed command line that names a command (main.ts printed the help otherwise); a failure
 * is said here, in this bundle's own terms (its CliError), and becomes the exit code.
 */
export async function runCommand(args: CliArgs & { readonly command: string }, early?: EarlyLaunch): Promise<ExitCode> {
  try {
    return await main(args, early);
  } catch (err) {
    return failure(err, args.json);
  } finally {
    early?.discard();
  }
}

/** The headless CLI: the same core as the extension, in a terminal. Exit codes: see USAGE. */
async function main(args: CliArgs & { readonly command: string }, early: EarlyLaunch | undefined): Promise<ExitCode> {
  const { command, server, tool, accepting, runsAlone } = checkCommandLine(args);
  if (runsAlone) {
    if (command === 'logout') return logout(server!, await everyCredentialStore());
    if (command === 'install-bundle') return installBundles().installBundle({ file: server!, config: args.config!, name: args.name, set: args.set, yes: args.yes, sandbox: args.sandbox });
    if (command === 'search') return registryCommands().searchCommand({ query: server ?? '', registry: args.registry, cursor: args.cursor, json: args.json });
    return registryAdd().addCommand({ name: server!, registry: args.registry, version: args.version, config: args.config, serverName: args.name, set: args.set, replace: args.replace, sandbox: args.sandbox, yes: args.yes, json: args.json });
  }
  const config = loadConfig(args.config, { trust: args.trustConfig, serving: command === 'serve' });
  for (const w of config.warnings) console.error(`config: warning: ${w}`);
  // `auth status` is about every server; `logout` with a config checks the name is one of its servers.
  const selected = selectServers(config, command === 'auth' ? undefined : server);
  // Entries we are not asked about only get a mention; the one asked for fails in selectServers.
  if (server === undefined) for (const e of config.errors) console.error(`config: ${e.message}`);
  // A lockfile holds every server of the config: one that cannot be read would be left out of it (or go unchecked).
  if ((command === 'lock' || command === 'verify') && config.errors.length > 0) throw new CliError(`Nothing ${command === 'lock' ? 'locked' : 'verified'}: ${config.errors.length === 1 ? 'an entry' : `${config.errors.length} entries`} of ${config.file} cannot be used (above).`);
  // Rules are read before any server starts: a rules file the user named that is broken stops here.
  // The workspace is the config's own folder for a workspace's file, else the current directory, as for ${workspaceFolder} (workspace.ts).
  const rules = RULED.has(command) ? readCliRules(args.rules, cliWorkspace(args.config)) : undefined;
  for (const w of rules?.warnings ?? []) console.error(`rules: warning: ${w}`);

  // One browser command for sign-in pages and for links a server asks to open.
  const browser = { flag: args.browser, env: process.env.BROWSER };
  // Sign-ins are kept (keychain, else a file of the user's) and opened only when a server asks for one.
  let credentials: Promise<CredentialStore> | undefined;
  const store = () => (credentials ??= openCredentialStore());
  const signIn = { secrets: lazySecretStore(store), ...(command !== 'login' && { loginCommand: (name: string) => loginCommand(name, config.file) }) };
  // The gateway passes a server's forms and log messages during a call to the client that made it.
  const relay = command === 'serve' ? new (loadGateway().BackendRelay)((line) => console.error(line)) : undefined;
  const host = createHost(selected, { configFile: config.file, askInputs: command !== 'serve' && command !== 'session', clientVersion: VERSION, handshakeTimeoutMs: args.timeoutSeconds === undefined ? undefined : args.timeoutSeconds * 1000, elicit: relay?.elicit ?? cliElicitor(args.elicitation, browserOpener(browser)), elicitLinks: relay ? false : undefined, sample: relay?.sample, logOf: relay && ((name, log) => relay.logFor(name, log)), browser, serverMessages: args.logLevel !== undefined, signIn, adoptEarly: early && ((launch) => early.adopt(launch)) });
  // Kept by each connection and applied when it starts, before anything else is asked.
  if (args.logLevel) for (const c of host.pool.connections) void c.setLogLevel(args.logLevel);
  const unhear = stopServersOnSignals(host);
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
    unhear();
    await host.close();
  }
}

/**
 * Ctrl+C, SIGTERM or SIGHUP while no command part listens for it (a server still starting, a
 * listing): the servers are stopped as at a normal end, then the CLI exits as the signal would
 * have (128 + its number). A server runs in a process group of its own (so its whole tree can be
 * stopped), so a terminal's Ctrl+C does not reach it: without this it outlived the CLI.
 */
function stopServersOnSignals(host: CliHost): () => void {
  let stopping = false;
  return exitOnStopSignals((signal) => {
    // `call` cancels on Ctrl+C, `serve` ends on SIGINT and SIGTERM: theirs to handle.
    if (ownedSignals.has(signal) || stopping) return false;
    stopping = true;
    return host.close();
  });
}
