import { checkServerName } from '../core/config/newServerEntry';
import { SERVER_SECRET_PREFIX } from '../core/config/secretVariables';
import type { BundleInstall } from '../core/install/bundle';
import { BundleError } from '../core/install/bundleErrors';
import { fillEntry } from '../core/install/fillEntry';
import type { InstallPlan } from '../core/install/installPlan';
import { downloadBundle } from '../core/install/registryBundle';
import type { RegistryEntry } from '../core/install/registryTypes';
import { visibleJson, visibleLine } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import { agreed, readConfigForWrite, writeServer } from './configWrite';
import { bundlesRoot } from './installBundle';
import { sandboxHint, sandboxLine, wantedSandbox } from './installSandbox';
import { asking, registryClient, registryUrl } from './registryCommands';

/** Pages of a search looked through for the exact name asked for. */
const MAX_PAGES = 10;

export interface AddOptions {
  readonly name: string;
  readonly registry?: string;
  readonly version?: string;
  readonly config?: string;
  readonly serverName?: string;
  readonly set: readonly string[];
  readonly replace: boolean;
  readonly sandbox: boolean;
  readonly yes: boolean;
  readonly json: boolean;
}

/** A secret the entry reads from the environment, and what the user must export for it. */
interface SecretVariable {
  readonly variable: string;
  readonly label: string;
  readonly description?: string;
}

/**
 * `add NAME`: the registry's server NAME written into --config as an entry, once the user saw
 * what will run and the registry's claims and agreed (--yes, or y on a terminal). Values come
 * from --set; secrets are never written: the entry reads each from an environment variable of
 * its own (`${env:MCP_INPUT_<SERVER>_<NAME>}`), and the user is told which to export. The file's
 * other content (comments too) is kept; a name it has already is refused unless --replace.
 */
export async function addCommand(options: AddOptions): Promise<ExitCode> {
  if (!options.config) throw new CliError('add needs --config FILE: the file the server is written to (created when missing).', Exit.usage, true);
  const sets = parseSets(options.set);
  const client = registryClient(registryUrl(options.registry));
  const entry = await findEntry(options.name, options.version, client);
  const option = entry.options.find((o) => o.plan || o.bundle);
  if (!option || (!option.plan && !option.bundle)) {
    const why = entry.options.map((o) => `  ${o.label}: ${o.problem}`).join('\n') || '  it lists no package or remote.';
    throw new CliError(`${entry.name} ${entry.version} cannot be installed, nothing was written:\n${why}`);
  }
  const file = options.config;
  const config = readConfigForWrite(file);
  const name = options.serverName ?? option.plan?.name ?? option.bundle!.name;
  const nameProblem = checkServerName(name, new Set());
  if (nameProblem) throw new CliError(`--name "${visibleLine(name)}": ${nameProblem}`, Exit.usage);
  if (config.names.has(name) && !options.replace) throw new CliError(`${file} already has a server named "${name}": nothing was written. Pass --name OTHER, or --replace to replace it.`);
  // Asked for before anything is downloaded: a machine that cannot sandbox says so at once.
  const sandbox = options.sandbox ? await wantedSandbox(option.plan?.runsVia ?? 'mcpb') : undefined;
  const bundle = option.bundle ? await fetchBundle(option.bundle, name) : undefined;
  const plan = bundle?.plan ?? option.plan!;
  const { values, secrets } = inputValues(plan, name, sets);
  const written = fillEntry(plan, values);
  if (sandbox) written.sandbox = sandbox;

  const others = entry.options.filter((o) => o !== option).map((o) => `  ${o.label}${o.problem ? ` (cannot be installed: ${o.problem})` : ''}`);
  const review = [
    `Adding "${name}" to ${file} from ${client.baseUrl}: ${entry.name} ${entry.version}`,
    ...(bundle ? [`The bundle ${visibleLine(option.bundle!.url)} was downloaded; its sha256 is the registry's. Unpacked to: ${visibleLine(bundle.unpackDir)}`] : []),
    ...runsLines(written),
    bundle ? 'The bundle and the registry claim (not checked, except the signature and the sha256):' : 'The registry claims (not checked):',
    ...plan.claims.map((c) => `  ${c.label}: ${c.value}`),
    ...(others.length > 0 ? ['Other ways it could run (not chosen):', ...others] : []),
    ...(secrets.length > 0 ? ['Secrets are not written into the file. Before starting it, export:', ...secrets.map((s) => `  ${s.variable}  (${s.label}${s.description ? `: ${s.description}` : ''})`)] : []),
  ];
  const hint = await sandboxHint(plan.runsVia, options);
  if (hint) review.push(hint);
  // The review goes to stderr with --json, so stdout stays one JSON document.
  (options.json ? console.error : console.log)(review.join('\n'));
  if (!(await agreed(options.yes, `Write "${name}" to ${file}? [y/N] `))) {
    const how = process.stdin.isTTY ? '' : ' Run on a terminal to be asked, or pass --yes.';
    throw new CliError(`Nothing was written.${how}`, Exit.approval);
  }
  if (bundle) await bundleStep(() => bundle.unpack());
  writeServer(file, config, name, written);
  if (options.json) console.log(visibleJson({ added: name, file, entry: written, exports: secrets.map((s) => s.variable) }, 2));
  else console.log(`Added "${name}" to ${file}. Try: mcp-tool-host tools ${/^[\w.@-]+$/.test(name) ? name : JSON.stringify(name)} --config ${file}`);
  return Exit.ok;
}

/** The bundle an entry points at, downloaded and checked (registryBundle.ts) for the server `name`. */
function fetchBundle(source: NonNullable<RegistryEntry['options'][number]['bundle']>, name: string): Promise<BundleInstall> {
  return asking(() => bundleStep(() => downloadBundle(source, { root: bundlesRoot(), name })));
}

/** A bundle that cannot be installed is one sentence, and nothing is written. */
async function bundleStep<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof BundleError) throw new CliError(`Not installed, nothing was written: ${err.message}`);
    throw err;
  }
}

/** `--set VAR=value` pairs; a value may hold "=". */
function parseSets(pairs: readonly string[]): Map<string, string> {
  const sets = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`--set takes VAR=value, not "${visibleLine(pair)}".`, Exit.usage, true);
    sets.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return sets;
}

/** The entry NAME of the registry (at `version`, else its latest), looked for through the pages of a search for it. */
async function findEntry(name: string, version: string | undefined, client: ReturnType<typeof registryClient>): Promise<RegistryEntry> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const found = await asking(() => client.search(name, { cursor, limit: 100, version }));
    const entry = found.entries.find((e) => e.name === name);
    if (entry) return entry;
    const dropped = found.dropped.find((d) => d.name === name);
    if (dropped) throw new CliError(`${client.baseUrl} sent ${visibleLine(name)} in a form that cannot be read (${dropped.reason}): nothing was written.`);
    cursor = found.nextCursor;
    if (!cursor) break;
  }
  throw new CliError(`${client.baseUrl} has no server named "${visibleLine(name)}"${version ? ` at version ${visibleLine(version)}` : ''}. Find it with: mcp-tool-host search ${JSON.stringify(visibleLine(name.split('/').pop() ?? name))}`);
}

/**
 * The value of each input: a secret as `${env:MCP_INPUT_...}` (a variable of this server's own,
 * so a stranger's server never reads one the user set for something else), the others from
 * --set or their default; an optional one with neither is left out. Missing required values and
 * --set names the plan does not ask for are errors that say which.
 */
function inputValues(plan: InstallPlan, server: string, sets: ReadonlyMap<string, string>): { values: Map<string, string | undefined>; secrets: SecretVariable[] } {
  const values = new Map<string, string | undefined>();
  const secrets: SecretVariable[] = [];
  const missing: string[] = [];
  const used = new Set<string>();
  for (const input of plan.inputs) {
    // A bundle's setting is named by its title (the label) or its key in the manifest (after the id's dot).
    const own = input.id.slice(input.id.indexOf('.') + 1);
    const key = [input.label, input.id, own].find((k) => sets.has(k));
    if (key !== undefined) used.add(key);
    if (input.secret) {
      const variable = `${SERVER_SECRET_PREFIX}${`${server}_${input.label}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
      if (key !== undefined) throw new CliError(`${input.label} is a secret: it is never written into the file. Leave out --set ${key}=..., and export ${variable} before starting the server.`, Exit.usage);
      values.set(input.id, `\${env:${variable}}`);
      secrets.push({ variable, label: input.label, ...(input.description ? { description: input.description } : {}) });
      continue;
    }
    const value = key !== undefined ? sets.get(key) : input.default;
    if (value !== undefined && input.choices && !input.choices.includes(value)) throw new CliError(`${input.label} must be one of ${input.choices.join(', ')}, not "${visibleLine(value)}".`, Exit.usage);
    if (value === undefined && input.required) missing.push(`--set ${/^[\w.-]+$/.test(input.label) ? input.label : own}=VALUE${input.description ? `  (${input.description})` : ''}`);
    values.set(input.id, value);
  }
  const unknown = [...sets.keys()].filter((k) => !used.has(k));
  if (unknown.length > 0) throw new CliError(`${plan.name} asks for no ${unknown.map((k) => `"${visibleLine(k)}"`).join(', ')}. It asks for: ${plan.inputs.map((i) => i.label).join(', ') || 'nothing'}.`, Exit.usage);
  if (missing.length > 0) throw new CliError(`It needs values before it can be written:\n${missing.map((m) => `  ${m}`).join('\n')}`, Exit.usage);
  return { values, secrets };
}

/** What will run, as it will run: the command line, its environment, or the URL and headers. */
function runsLines(entry: Record<string, unknown>): string[] {
  const pairs = (record: unknown) => Object.entries((record ?? {}) as Record<string, string>).map(([k, v]) => `    ${visibleLine(k)}: ${visibleLine(v)}`);
  if (typeof entry.url === 'string') {
    const headers = pairs(entry.headers);
    return [`It will connect to: ${visibleLine(entry.url)}`, ...(headers.length > 0 ? ['  sending the headers:', ...headers] : [])];
  }
  const words = [entry.command as string, ...((entry.args as string[] | undefined) ?? [])].map((w) => (/^[\w@%+=:,./${}-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`));
  const env = pairs(entry.env);
  return [`It will run: ${visibleLine(words.join(' '))}`, ...(env.length > 0 ? ['  with the environment:', ...env] : []), ...(entry.sandbox !== undefined ? [sandboxLine(entry.sandbox)] : [])];
}
