import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ONE_SERVERS_SECRET } from './secretVariables';
import { ConfigError, PolicyRefusal } from '../errors';
import { loadConfigOptions } from './load';
import type { ResolvedLaunch } from './resolvedLaunch';
import type { SandboxSettings } from './sandboxConfig';
import { httpSends } from './launchReview';
import { policyFiles } from './policyPaths';
import { maskSecrets } from '../render/secrets';
import type { HttpServerSpec, ServerDefinition } from './serverConfig';
import { inputIds, substitute, type VariableContext } from './variables';

export type { ResolvedLaunch } from './resolvedLaunch';

/** Every string of a definition that variables may appear in. */
export function definitionStrings(def: ServerDefinition): string[] {
  const spec = def.spec;
  if (spec.type === 'http') return [spec.url, ...Object.values(spec.headers), ...(spec.oauth ? loadConfigOptions().oauthStrings(spec.oauth) : [])];
  return [spec.command, ...spec.args, ...Object.values(spec.env).filter((v): v is string => v !== null), spec.cwd ?? '', spec.envFile ?? '', ...sandboxPaths(spec.sandbox)];
}

/** The paths of a sandbox: variables may appear in them. */
function sandboxPaths(sandbox: SandboxSettings | false | undefined): string[] {
  return sandbox ? [...sandbox.filesystem.denyRead, ...sandbox.filesystem.allowWrite, ...sandbox.filesystem.denyWrite] : [];
}

/** The `${input:id}` ids a definition needs before it can launch. */
export function requiredInputs(def: ServerDefinition): string[] {
  return inputIds(definitionStrings(def));
}

/**
 * Where the value of `${input:id}` is kept for a definition: the user's own servers share one
 * value per id; a workspace's servers get values of their own, per file that declares them
 * (`declaredIn`). So a repository that names the id of a credential the user stored for their own
 * server, or one that another repository's file was given, is asked for a value of its own.
 */
export function inputSecretKey(def: ServerDefinition, id: string): string {
  if (def.source === 'user') return `mcpToolHost.input.${id}`;
  const place = createHash('sha256').update(def.declaredIn?.id ?? '').digest('hex').slice(0, 16);
  return `mcpToolHost.input.workspace:${place}:${id}`;
}

/**
 * What a workspace's definition of a remote server may take from the user's environment:
 * `shown` where the launch prompt shows each `${env:NAME}` and where it goes before anything is
 * sent (VS Code), `refused` where nothing asks (the CLI, unless the file is the user's own).
 */
export interface LaunchPolicy {
  readonly envInWorkspaceRequests: 'shown' | 'refused';
}

/**
 * The variables a sandboxed server gets from the host's environment: enough to run a
 * program and find its tools, nothing that is usually a secret (tokens, keys, proxy credentials).
 * Its own `env` comes on top.
 */
const SANDBOX_ENV = /^(PATH|HOME|USER|LOGNAME|SHELL|TERM|COLORTERM|LANG|LANGUAGE|LC_\w+|TZ|TMPDIR|TEMP|TMP|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|SYSTEMROOT|WINDIR|COMSPEC|PATHEXT)$/;

/** An authorization scheme and its credential ("Bearer abc", "Basic dXNlcjpwdw=="), as RFC 9110 writes them. */
const SCHEME_CREDENTIAL = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+(\S+)[ \t]*$/;

/**
 * What of a header value is masked: the value, and the credential after its scheme on its own (a
 * server that echoes or logs the bare token); of Basic, the password it encodes too.
 */
export function headerSecrets(value: string): string[] {
  const credential = SCHEME_CREDENTIAL.exec(value)?.[1];
  if (credential === undefined) return [value];
  const out = [value, credential];
  if (/^basic[ \t]/i.test(value)) {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) out.push(decoded, decoded.slice(colon + 1));
  }
  return out;
}

/**
 * Resolves a definition into what actually runs: variables substituted everywhere, the
 * environment built as the host's environment (a sandboxed server: SANDBOX_ENV of it), less the
 * variables that carry one server's secret, overlaid with `env` (null removes), and `cwd` defaulting to the first workspace folder.
 * A workspace's definition may read files only inside the workspace, and send the user's
 * environment to a remote server only as `policy` says.
 */
export function resolveLaunch(def: ServerDefinition, ctx: VariableContext, policy: LaunchPolicy = { envInWorkspaceRequests: 'refused' }): ResolvedLaunch {
  const sub = (value: string, where: string) => {
    try {
      return substitute(value, ctx);
    } catch (err) {
      throw new ConfigError(def.name, `${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const spec = def.spec;
  const secrets = requiredInputs(def).map((id) => ctx.inputs?.[id]).filter((v): v is string => !!v);
  const fail = (message: string): never => {
    throw new ConfigError(def.name, message);
  };
  // A repository's file names files of the repository: not the user's keys elsewhere.
  const settingsFile = (file: string, where: string) => {
    const resolved = path.resolve(ctx.workspaceFolders[0]?.path ?? process.cwd(), file);
    if (def.source === 'workspace' && !insideFolders(resolved, ctx.workspaceFolders)) {
      fail(`"${where}" names "${resolved}", outside the workspace: a workspace's server may read only the workspace's own files. To use a file elsewhere, define the server in your own settings.`);
    }
    return resolved;
  };
  if (spec.type === 'http') {
    // Before anything else is resolved or asked for: what it would read and send from outside the workspace.
    for (const f of httpSends(spec).files) settingsFile(sub(f.file, f.where), f.where);
    if (def.source === 'workspace' && policy.envInWorkspaceRequests === 'refused') refuseEnvInRequests(spec, fail);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(spec.headers)) headers[k] = sub(v, `headers.${k}`);
    const readFile = (file: string, where: string) => readSettingsFile(settingsFile(file, where), where, fail);
    const oauth = spec.oauth && loadConfigOptions().resolveOAuth(spec.oauth, sub, readFile, fail);
    // Header values are credentials more often than not: mask them everywhere too.
    const launch: ResolvedLaunch = { type: 'http', url: sub(spec.url, 'url'), headers, ...(oauth && { oauth: oauth.oauth }), secrets: [...secrets, ...Object.values(headers).flatMap(headerSecrets), ...(oauth?.secrets ?? [])] };
    return allowedLaunch(def, launch, []);
  }
  const env: Record<string, string> = {};
  /** The variables the definition itself sets, beside what it inherits. */
  const setEnv: string[] = [];
  const box = spec.sandbox || undefined;
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined && (!box || SANDBOX_ENV.test(k)) && !ONE_SERVERS_SECRET.test(k)) env[k] = v;
  if (spec.envFile !== undefined) {
    const file = settingsFile(sub(spec.envFile, 'envFile'), 'envFile');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(def.name, `envFile "${file}" cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
    }
    const fromFile = parseEnvFile(text);
    setEnv.push(...Object.keys(fromFile));
    Object.assign(env, fromFile);
  }
  for (const [k, v] of Object.entries(spec.env)) {
    if (v === null) delete env[k];
    else {
      env[k] = sub(v, `env.${k}`);
      setEnv.push(k);
    }
  }
  const cwd = spec.cwd !== undefined ? path.resolve(ctx.workspaceFolders[0]?.path ?? process.cwd(), sub(spec.cwd, 'cwd')) : ctx.workspaceFolders[0]?.path;
  // A leading `~` stays for the sandbox to read as the server's HOME (transport/sandbox.ts), not this process's.
  const paths = (list: readonly string[], key: string) => list.map((p, i) => (/^~([/\\]|$)/.test(p) ? '~' + sub(p.slice(1), `sandbox.filesystem.${key}[${i}]`) : sub(p, `sandbox.filesystem.${key}[${i}]`)));
  const args = spec.args.map((a, i) => sub(a, `args[${i}]`));
  // The folders its own arguments name are writable too, within what its source may grant.
  const argumentFolders = box && loadConfigOptions().argumentFolders(args, def.source, ctx.workspaceFolders, env.HOME);
  const sandbox = box && { ...box, argumentFolders, filesystem: { denyRead: paths(box.filesystem.denyRead, 'denyRead'), allowWrite: paths(box.filesystem.allowWrite, 'allowWrite'), denyWrite: paths(box.filesystem.denyWrite, 'denyWrite') } };
  const launch: ResolvedLaunch = { type: 'stdio', launch: { command: sub(spec.command, 'command'), args, env, cwd }, ...(sandbox && { sandbox }), secrets };
  return allowedLaunch(def, launch, setEnv);
}

/** The launch, unless the administrator's allowlist of servers refuses it (a PolicyRefusal saying why and which policy). */
function allowedLaunch(def: ServerDefinition, launch: ResolvedLaunch, setEnv: readonly string[]): ResolvedLaunch {
  const refusal = policyRefusal(def, launch, setEnv);
  if (refusal) throw refusal;
  return launch;
}

function policyRefusal(def: ServerDefinition, launch: ResolvedLaunch, setEnv: readonly string[]): PolicyRefusal | undefined {
  const options = loadConfigOptions();
  const refusal = options.refusalOf(options.readAllowlists(policyFiles()), launch, setEnv);
  return refusal && new PolicyRefusal(def.name, maskSecrets(refusal.reason, launch.secrets ?? []), refusal.policyFile);
}

/**
 * Resolves a launch whose `${input:...}` values are asked (`ask`), the administrator's allowlist
 * first: a server it refuses is refused before anything is asked, so no one types a token for a
 * server that may not run. That is known when what the allowlist judges (the command and its
 * arguments, or the URL) needs no input; when it does, the launch is judged once the values are given.
 */
export async function resolveLaunchAsking(def: ServerDefinition, ctx: Omit<VariableContext, 'inputs'>, ask: () => Promise<Record<string, string>>, policy?: LaunchPolicy): Promise<ResolvedLaunch> {
  if (requiredInputs(def).length > 0) {
    const refusal = refusalBeforeInputs(def, ctx);
    if (refusal) throw refusal;
  }
  return resolveLaunch(def, { ...ctx, inputs: await ask() }, policy);
}

/** The allowlist's refusal of what a definition runs, judged without its input values; undefined when they decide it. */
function refusalBeforeInputs(def: ServerDefinition, ctx: VariableContext): PolicyRefusal | undefined {
  const spec = def.spec;
  const judged = spec.type === 'http' ? [spec.url] : [spec.command, ...spec.args];
  if (inputIds(judged).length > 0) return undefined;
  let launch: ResolvedLaunch;
  try {
    launch = spec.type === 'http' ? { type: 'http', url: substitute(spec.url, ctx), headers: {} } : { type: 'stdio', launch: { command: substitute(spec.command, ctx), args: spec.args.map((a) => substitute(a, ctx)), env: {} } };
  } catch {
    return undefined; // a variable that cannot be resolved: resolveLaunch says which
  }
  // The names "env" sets are known without their values; an envFile's only once it is read, with the launch.
  const setEnv = spec.type === 'stdio' ? Object.entries(spec.env).filter(([, v]) => v !== null).map(([k]) => k) : [];
  return policyRefusal(def, launch, setEnv);
}

/** A workspace's http definition that would send the user's environment, where nothing shows it first: refused, naming what and where. */
function refuseEnvInRequests(spec: HttpServerSpec, fail: (message: string) => never): void {
  const sends = httpSends(spec).sent.filter((s) => s.envNames.length > 0);
  if (sends.length === 0) return;
  const what = sends.map((s) => `${s.envNames.join(', ')} (${s.where})`).join('; ');
  fail(`this workspace's definition would send your environment variables ${what} to ${originOf(spec.url)}: a repository's file may not send your environment to a remote server unasked. Give the value as \${input:id} (asked once, kept for this file), or use the file as your own (the CLI: --trust-config).`);
}

/** The scheme, host and port of a URL as written, for a message (the whole URL may carry variables). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Whether `file` (symbolic links followed where it exists) is inside one of the folders (theirs followed too). */
export function insideFolders(file: string, folders: readonly { readonly path: string }[]): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const target = real(file);
  return folders.some((f) => {
    const relative = path.relative(real(f.path), target);
    return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
  });
}

/** A file a setting names (a key, a token): its text, or a ConfigError naming the setting and why, never the contents. */
function readSettingsFile(file: string, where: string, fail: (message: string) => never): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    return fail(`"${where}" names "${file}", which cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
}

/** KEY=value lines; `#` comments, `export ` prefixes and matching quotes are allowed. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!m || raw.trimStart().startsWith('#')) continue;
    let value = m[2];
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[1] === '"' ? quoted[2].replace(/\\n/g, '\n') : quoted[2];
    else value = value.replace(/\s+#.*$/, '');
    out[m[1]] = value;
  }
  return out;
}
