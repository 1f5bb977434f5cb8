import * as fs from 'node:fs';
import type { ResolvedLaunch } from './resolvedLaunch';
import { loadsCode } from './codeLoading';
import { launchPackages } from './launchPackages';

/**
 * The administrator's allowlist of servers: `"allowedServers"` in a policy file (the file that
 * holds their rules). Where one is present, a server runs only when an entry allows what it
 * launches, in every surface (the extension, the CLI, the gateway, doctor): its package (what
 * npx, uvx, docker run... fetch), its command, or its URL. A server refused is never hidden: its
 * start fails with the reason and the file that refused it. Several policy files each with a list:
 * each must allow it. A policy file that exists and cannot be read refuses every launch, since it
 * may hold a list.
 */

/** One entry: every field it has must match. */
export interface AllowEntry {
  /** A package name glob (`@modelcontextprotocol/*`, `mcp-server-git`, `ghcr.io/acme/*`), version left off. */
  readonly package?: string;
  /** A command as written: a bare name (`acme-mcp`, found on PATH) or a path glob (`/opt/mcp/bin/*`). */
  readonly command?: string;
  /** With `command`: globs its first arguments must match, in order (more may follow). */
  readonly args?: readonly string[];
  /** A remote server's URL pattern: `https://*.acme.com/mcp`, a missing path meaning any. */
  readonly url?: string;
  /**
   * A registry name glob (`io.github.acme/*`): what the administrator's registry (the policy's
   * `registryUrl`, else the official one) says those servers run: their packages and remote URLs.
   */
  readonly registryName?: string;
}

/** What the registry says the servers of one registryName pattern run. */
export interface RegistryNameRuns {
  readonly packages: readonly { readonly ecosystem: 'npm' | 'pypi' | 'oci'; readonly name: string }[];
  /** Remote URLs, compared without their query. */
  readonly urls: readonly string[];
}

/** The answer for each pattern: what it runs, or why the registry could not say. */
export type RegistryNameAnswers = ReadonlyMap<string, RegistryNameRuns | { readonly problem: string }>;

/** The list of one policy file. */
export interface ServerAllowlist {
  readonly file: string;
  readonly entries: readonly AllowEntry[];
  /** The registry the file pins (`registryUrl`): what its registryName entries mean. */
  readonly registryUrl?: string;
}

/** Every list of the policy files, or the file that could not be read. */
export type AllowlistRead = { readonly lists: readonly ServerAllowlist[] } | { readonly problem: string; readonly file: string };

const MAX_POLICY_BYTES = 1024 * 1024;
const ENTRY_KEYS = new Set(['package', 'command', 'args', 'url', 'registryName']);
/** How long the registry's answer for a registryName pattern holds before it is asked again. */
const REGISTRY_ANSWER_MS = 10 * 60_000;

/** Parses one policy file's `allowedServers`; undefined when it has none, a string says what is wrong. */
export function parseAllowlist(file: string, policy: unknown): ServerAllowlist | string | undefined {
  // A list is a rules file of its own shape (`[...rules]`): it holds no allowlist.
  if (Array.isArray(policy)) return undefined;
  if (typeof policy !== 'object' || policy === null) return `The policy file ${file} is not a JSON object.`;
  const list = (policy as Record<string, unknown>).allowedServers;
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `"allowedServers" in ${file} is not a list.`;
  const entries: AllowEntry[] = [];
  for (const [i, raw] of list.entries()) {
    const where = `"allowedServers"[${i}] in ${file}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `${where} is not an object.`;
    const entry = raw as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
    if (unknown.length > 0) return `${where} has ${unknown.map((k) => JSON.stringify(k)).join(', ')}, which an entry cannot have (package, command, args, url, registryName).`;
    for (const key of ['package', 'command', 'url', 'registryName'] as const) {
      if (entry[key] !== undefined && (typeof entry[key] !== 'string' || entry[key] === '')) return `${where}: "${key}" must be a non-empty string.`;
    }
    if (entry.args !== undefined && (entry.command === undefined || !Array.isArray(entry.args) || !entry.args.every((a) => typeof a === 'string'))) return `${where}: "args" must be a list of strings, beside a "command".`;
    if (entry.registryName !== undefined && Object.keys(entry).length > 1) return `${where} names a registryName beside something else: a registry name stands alone.`;
    if (entry.package === undefined && entry.command === undefined && entry.url === undefined && entry.registryName === undefined) return `${where} names no package, command, url or registryName, so it would allow nothing.`;
    if (entry.url !== undefined && (entry.package !== undefined || entry.command !== undefined)) return `${where} names a url and a package or command: a remote server has neither.`;
    if (typeof entry.url === 'string' && !URL_PATTERN.test(entry.url)) return `${where}: "url" must look like https://host/path (a * may stand for part of the host or path).`;
    entries.push(entry as AllowEntry);
  }
  const registryUrl = (policy as Record<string, unknown>).registryUrl;
  if (registryUrl !== undefined && (typeof registryUrl !== 'string' || registryUrl === '')) return `The policy file ${file} has a "registryUrl" that is not a URL.`;
  return { file, entries, ...(registryUrl !== undefined && { registryUrl }) };
}

/** Reads the lists of the policy files (unchanged files are not read again). */
export function readAllowlists(files: readonly string[]): AllowlistRead {
  const lists: ServerAllowlist[] = [];
  for (const file of files) {
    const read = readPolicyFile(file);
    if (read === undefined) continue;
    if (typeof read === 'string') return { problem: read, file };
    lists.push(read);
  }
  return { lists };
}

const cache = new Map<string, { readonly stamp: string; readonly read: ServerAllowlist | string | undefined }>();

function readPolicyFile(file: string): ServerAllowlist | string | undefined {
  let stamp: string;
  try {
    const stat = fs.statSync(file);
    if (stat.size > MAX_POLICY_BYTES) return `The policy file ${file} is over ${MAX_POLICY_BYTES} bytes.`;
    stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `The policy file ${file} could not be read (${code ?? (err as Error).message}).`;
  }
  const known = cache.get(file);
  if (known?.stamp === stamp) return known.read;
  let read: ServerAllowlist | string | undefined;
  try {
    read = parseAllowlist(file, JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    read = code ? `The policy file ${file} could not be read (${code}).` : `The policy file ${file} is not valid JSON.`;
  }
  cache.set(file, { stamp, read });
  return read;
}

/** Why the administrator's lists refuse a launch, and the policy file that refused it. */
export interface LaunchRefusal {
  readonly reason: string;
  readonly policyFile: string;
}

/**
 * Why the administrator's lists refuse this launch, or undefined when they allow it (or there are
 * none). `setEnv`: the variables the definition itself sets (its `env` and `envFile`); one that
 * changes which code runs (NODE_OPTIONS, PATH, npm_config_registry...) would run other code under
 * an allowed name, so no entry vouches for such a launch. The caller masks the launch's secrets in
 * what is said.
 */
export function launchRefusal(read: AllowlistRead, launch: ResolvedLaunch, setEnv: readonly string[]): string | undefined {
  return refusalOf(read, launch, setEnv)?.reason;
}

/** launchRefusal, with the policy file that refused (the editor offers to open it). */
export function refusalOf(read: AllowlistRead, launch: ResolvedLaunch, setEnv: readonly string[]): LaunchRefusal | undefined {
  if ('problem' in read) return { reason: `Not started: ${read.problem} It is the administrator's policy, so whether this server may run is not known. Ask your administrator.`, policyFile: read.file };
  for (const list of read.lists) {
    if (list.entries.some((entry) => allows(entry, launch))) continue;
    return { reason: `Not started: the administrator's policy (${list.file}) allows only the servers it lists, and this one is not among them: it runs ${whatRuns(launch)}.${unanswered(list)} Ask your administrator to allow it.`, policyFile: list.file };
  }
  const loading = launch.type === 'stdio' ? setEnv.filter(loadsCode) : [];
  if (read.lists.length > 0 && loading.length > 0) {
    return {
      reason: `Not started: the administrator's policy (${read.lists[0].file}) allows only the servers it lists, and this definition sets ${loading.join(', ')}, which changes the code that runs: an allowed name would not be the program that starts. Remove ${loading.length === 1 ? 'it' : 'them'} from the server's "env" (or its envFile).`,
      policyFile: read.lists[0].file,
    };
  }
  return undefined;
}

function allows(entry: AllowEntry, launch: ResolvedLaunch): boolean {
  if (entry.registryName !== undefined) return registryAllows(entry.registryName, launch);
  if (launch.type === 'http') return entry.url !== undefined && urlMatches(entry.url, launch.url);
  if (entry.url !== undefined) return false;
  const { command, args } = launch.launch;
  if (entry.command !== undefined && !commandMatches(entry.command, command)) return false;
  if (entry.args !== undefined && !entry.args.every((pattern, i) => args[i] !== undefined && glob(pattern).test(args[i]))) return false;
  if (entry.package !== undefined) {
    const runs = launchPackages(command, args);
    if (!runs) return false;
    const pattern = glob(runs.ecosystem === 'pypi' ? entry.package.toLowerCase().replace(/[-_.]+/g, '-') : entry.package.toLowerCase());
    return runs.names.every((name) => pattern.test(name));
  }
  return true;
}

/** The registry's answers, per pattern, while they hold (the surfaces ask before a launch: registryNamesToCheck). */
const answers = new Map<string, { readonly answer: RegistryNameRuns | { readonly problem: string }; readonly until: number }>();

/** The registryName patterns of the lists with no fresh answer of the registry. */
export function registryNamesToCheck(read: AllowlistRead): string[] {
  if ('problem' in read) return [];
  const now = Date.now();
  const patterns = read.lists.flatMap((list) => list.entries.flatMap((e) => (e.registryName === undefined ? [] : [e.registryName])));
  return [...new Set(patterns)].filter((p) => (answers.get(p)?.until ?? 0) <= now);
}

/** Asks a registry what the servers of registryName patterns run (the install room's registryNameRuns). */
export type AskRegistry = (patterns: readonly string[], registryUrl: string | undefined) => Promise<RegistryNameAnswers>;

let checking: Promise<void> | undefined;

/**
 * Before a launch is resolved: when a list names servers by registry name and the registry's answer
 * is not fresh, asks the registry the list's own file pins (else the official one: never the user's
 * registry setting, which could claim any package for any name). Servers starting together ask
 * once. Costs a `stat` of each policy file when there is nothing to ask. Never throws: a registry
 * that cannot answer allows nothing.
 */
export function checkRegistryNames(files: readonly string[], ask: AskRegistry): Promise<void> {
  const read = readAllowlists(files);
  if (registryNamesToCheck(read).length === 0 || 'problem' in read) return Promise.resolve();
  checking ??= (async () => {
    for (const list of read.lists) {
      const pending = registryNamesToCheck({ lists: [list] });
      if (pending.length === 0) continue;
      try {
        recordRegistryNames(await ask(pending, list.registryUrl));
      } catch (err) {
        recordRegistryNames(new Map(pending.map((p) => [p, { problem: (err as Error).message }])));
      }
    }
  })().finally(() => (checking = undefined));
  return checking;
}

/** Keeps the registry's answers (a problem is kept a minute, so a registry that is down is not asked at every start). */
export function recordRegistryNames(found: RegistryNameAnswers): void {
  const now = Date.now();
  for (const [pattern, answer] of found) answers.set(pattern, { answer, until: now + ('problem' in answer ? 60_000 : REGISTRY_ANSWER_MS) });
}

/** Whether a registry name matches a registryName pattern (`*` within one part, as everywhere in the list). */
export function registryNameMatches(pattern: string, name: string): boolean {
  return glob(pattern).test(name);
}

function registryAllows(pattern: string, launch: ResolvedLaunch): boolean {
  const known = answers.get(pattern)?.answer;
  if (!known || 'problem' in known) return false;
  if (launch.type === 'http') return known.urls.includes(urlWithoutQuery(launch.url));
  const runs = launchPackages(launch.launch.command, launch.launch.args);
  return runs !== undefined && runs.names.every((name) => known.packages.some((p) => p.ecosystem === runs.ecosystem && p.name === name));
}

/** Why a list's registry names allowed nothing, when the registry could not be asked. */
function unanswered(list: ServerAllowlist): string {
  const problems = list.entries.flatMap((e) => {
    const known = e.registryName === undefined ? undefined : (answers.get(e.registryName)?.answer ?? { problem: 'not asked yet' });
    return known && 'problem' in known ? [`${e.registryName}: ${known.problem}`] : [];
  });
  return problems.length === 0 ? '' : ` What the registry names it allows run could not be checked (${problems.join('; ')}).`;
}

/** A bare name matches only a bare command (found on PATH); a pattern with a folder, the path as written. */
function commandMatches(pattern: string, command: string): boolean {
  const bare = (s: string) => !/[\\/]/.test(s);
  if (bare(pattern)) return bare(command) && pattern.toLowerCase() === command.replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
  return !bare(command) && glob(pattern).test(command);
}

const URL_PATTERN = /^(https?):\/\/([^/?#@]+?)(\/[^?#]*)?$/i;

/** `*` in the host stands for one or more labels, in the path for anything; query and fragment are not compared. */
function urlMatches(pattern: string, url: string): boolean {
  const p = URL_PATTERN.exec(pattern);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!p || u.protocol !== `${p[1].toLowerCase()}:` || u.username || u.password) return false;
  const [hostPattern, portPattern] = splitPort(p[2].toLowerCase());
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  if ((portPattern ?? (u.protocol === 'https:' ? '443' : '80')) !== port) return false;
  const host = new RegExp(`^${hostPattern.split('*').map(escape).join('[^/:@]+')}$`);
  if (!host.test(u.hostname.toLowerCase())) return false;
  if (p[3] === undefined) return true;
  // A URL's path is percent-encoded ("/My%20Team"); the administrator may have written the space: both spelled as a URL spells them.
  // Both sides are URL paths (never file paths): compared as encoded, so no fileURLToPath here.
  const urlPathPattern = new URL(p[3], 'https://pattern.invalid').pathname;
  return new RegExp(`^${urlPathPattern.split('*').map(escape).join('.*')}$`).test(u.pathname);
}

function splitPort(host: string): [string, string | undefined] {
  const m = /^(.*):(\d+)$/.exec(host);
  return m ? [m[1], m[2]] : [host, undefined];
}

/** A glob over one value: `**` anything, `*` anything within one path segment, `?` one such character. */
function glob(pattern: string): RegExp {
  const body = pattern.split('**').map((part) => part.split('*').map((s) => s.split('?').map(escape).join('[^/\\\\]')).join('[^/\\\\]*')).join('.*');
  return new RegExp(`^${body}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a launch runs, in words, for the refusal. */
function whatRuns(launch: ResolvedLaunch): string {
  if (launch.type === 'http') return `the remote server ${urlWithoutQuery(launch.url)}`;
  const runs = launchPackages(launch.launch.command, launch.launch.args);
  const command = JSON.stringify(launch.launch.command);
  return runs ? `the ${runs.ecosystem} package${runs.names.length > 1 ? 's' : ''} ${runs.names.join(', ')} (command ${command})` : `the command ${command}`;
}

/** A URL's query often carries a key: the refusal names the place only, and registry URLs compare without it. */
export function urlWithoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/, 1)[0];
  }
}
