import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Runtime from '@anthropic-ai/sandbox-runtime' with { 'resolution-mode': 'import' };
import type { StdioLaunch } from './commandLine';

/**
 * The one port over the process sandbox: `@anthropic-ai/sandbox-runtime` (bubblewrap
 * with a filtering proxy on Linux, sandbox-exec on macOS), pinned, and used nowhere else, so it
 * can be replaced. Behind the folder's door (later.ts), reached through loadTransport(); the
 * package is ESM only, hence the dynamic import (in dist/ it is a bundle of its own,
 * dist/sandbox-runtime.mjs: esbuild.mjs).
 *
 * The library keeps one session per process (its proxies, its base configuration): the base
 * denies every host and every write; each server adds its own writable paths and read denials
 * (the per-command configuration) and its own hosts (a network list registered under an
 * unguessable id that only its process is given). The session ends with the last sandboxed server.
 */

/** What a sandboxed server may touch (parsed in config/sandboxConfig.ts). Paths may be relative (to its working folder), start with `~`, or hold variables. */
export interface SandboxSettings {
  readonly filesystem: {
    /** Paths it may not read (everything else is readable). */
    readonly denyRead: readonly string[];
    /** The only paths it may write. */
    readonly allowWrite: readonly string[];
    /** Paths inside allowWrite it still may not write. */
    readonly denyWrite: readonly string[];
  };
  readonly network: {
    /** The only hosts it may reach ("example.com", "*.example.com"); empty: no network at all. */
    readonly allowedDomains: readonly string[];
    /** Hosts it may never reach, even when an allowed wildcard matches. */
    readonly deniedDomains: readonly string[];
  };
  /** Where the machine cannot sandbox, start it unsandboxed (with a warning) instead of failing. */
  readonly allowUnsandboxed: boolean;
  /** Set when the launch is resolved: the existing folders its arguments name, made writable or kept read-only (config/sandboxConfig.ts argumentFolders). */
  readonly argumentFolders?: ArgumentFolders;
  /** The sandbox came from the mcpToolHost.sandbox.stdioByDefault setting, not the server's own entry (a refusal names the setting). */
  readonly bySetting?: boolean;
}

/** The folders a sandboxed server's arguments name: those it may write, and those kept read-only with the reason. */
export interface ArgumentFolders {
  readonly writable: readonly string[];
  readonly readOnly: readonly { readonly folder: string; readonly why: string }[];
}

/** What wrapping a launch came to. */
export type WrapResult =
  /** Spawn `launch` instead; call `release` once the process is gone. `fence`: what it may touch, and what the sandbox denied it. */
  | { readonly kind: 'sandboxed'; readonly launch: StdioLaunch; readonly release: () => void; readonly fence: SandboxFence }
  /** The machine cannot sandbox and the configuration allows running unsandboxed: spawn the original launch. */
  | { readonly kind: 'unsandboxed'; readonly warning: string }
  /** The machine cannot sandbox: do not start the server. */
  | { readonly kind: 'refused'; readonly reason: string };

/** A running sandbox's limits (paths resolved) and the connections its proxy refused, to explain a failed call. */
export interface SandboxFence {
  readonly writable: readonly string[];
  readonly allowedDomains: readonly string[];
  /** The `host:port` of each connection the proxy refused this server since `since` (a Date.now() value). */
  readonly refusedSince: (since: number) => readonly string[];
}

/** Whether this machine can sandbox, and if not, why and what to install. */
export type SandboxCheck = { readonly ok: true; readonly warnings: readonly string[] } | { readonly ok: false; readonly reason: string };

/** Where every process of ours may write anyway: its stdio and the null device (the library adds /tmp/claude). */
const BASE_CONFIG = {
  network: { allowedDomains: [] as string[], deniedDomains: [] as string[] },
  filesystem: { denyRead: [] as string[], allowWrite: [] as string[], denyWrite: [] as string[] },
};

let runtime: Promise<typeof Runtime> | undefined;
let session: Promise<void> | undefined;
/** The end of the last session: a new one starts after it (the library's state is one per process). */
let ended: Promise<void> = Promise.resolve();
let users = 0;
const deniedDomains = new Set<string>();

function load(): Promise<typeof Runtime> {
  return (runtime ??= import('@anthropic-ai/sandbox-runtime'));
}

/** Checks the platform and the prerequisites (bubblewrap, socat and ripgrep on Linux) without starting anything. */
export async function sandboxCheck(): Promise<SandboxCheck> {
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    return { ok: false, reason: `this platform (${process.platform}) cannot sandbox a server: only Linux (bubblewrap) and macOS (sandbox-exec) can` };
  }
  let manager: typeof Runtime.SandboxManager;
  try {
    manager = (await load()).SandboxManager;
  } catch (err) {
    return { ok: false, reason: `the sandbox library did not load: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!manager.isSupportedPlatform()) return { ok: false, reason: 'the sandbox library does not support this machine (on Linux it needs kernel user namespaces; WSL 1 cannot)' };
  const deps = await manager.checkDependenciesAsync();
  if (deps.errors.length) return { ok: false, reason: `${deps.errors.join('; ')}. ${installHint()}` };
  return { ok: true, warnings: deps.warnings };
}

/** Run Doctor's view of a sandbox: what it lets the server reach (`effective`, described by the caller) and whether this machine can sandbox at all. */
export async function sandboxFacts(effective: readonly string[]): Promise<{ effective: readonly string[]; prerequisites: string }> {
  const check = await sandboxCheck();
  const prerequisites = check.ok ? `this machine can sandbox${check.warnings.length ? ` (${check.warnings.join('; ')})` : ''}` : `this machine cannot sandbox: ${check.reason}`;
  return { effective, prerequisites };
}

/** How to install what a sandbox needs here, in one sentence. */
export function installHint(): string {
  return process.platform === 'darwin'
    ? 'macOS ships sandbox-exec; nothing else is needed.'
    : 'Install bubblewrap, socat and ripgrep: `sudo apt-get install bubblewrap socat ripgrep` (Debian, Ubuntu), `sudo dnf install bubblewrap socat ripgrep` (Fedora), `sudo pacman -S bubblewrap socat ripgrep` (Arch).';
}

/**
 * Wraps a launch (its `command` already resolved to an executable) in the sandbox `settings`
 * describe. Relative paths are read from the launch's working folder and `~` is the server's
 * HOME; a denial is applied for the host user's home too when the server was given another.
 */
export async function wrapLaunch(launch: StdioLaunch, settings: SandboxSettings): Promise<WrapResult> {
  const check = await sandboxCheck();
  if (!check.ok) {
    const why = check.reason.replace(/\.$/, '');
    // Said by what turned the sandbox on: the setting the user just turned on names the setting, not a key of each server.
    if (settings.bySetting) return { kind: 'refused', reason: `The setting mcpToolHost.sandbox.stdioByDefault runs this server in a sandbox, and ${why}. Turn the setting off to run it unsandboxed.` };
    const reason = `This server is configured to run in a sandbox, and ${why}.`;
    return settings.allowUnsandboxed ? { kind: 'unsandboxed', warning: `${reason} Starting it unsandboxed, as its "sandbox.allowUnsandboxed" allows.` } : { kind: 'refused', reason: `${reason} It was not started unsandboxed; to allow that, set "sandbox": { "allowUnsandboxed": true }.` };
  }
  const { SandboxManager } = await load();
  users++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    SandboxManager.unregisterCommandNetworkLists(commandId);
    if (--users === 0) {
      const ending = session ?? Promise.resolve();
      session = undefined;
      ended = ending.then(() => SandboxManager.reset()).catch(() => undefined);
    }
  };
  // The id binds a connection to this server's hosts: 128 random bits (the library's rule).
  const commandId = randomBytes(16).toString('base64url');
  try {
    await (session ??= ended.then(() => SandboxManager.initialize({ ...BASE_CONFIG, network: { ...BASE_CONFIG.network, deniedDomains: [...deniedDomains] } })));
    const grown = settings.network.deniedDomains.filter((d) => !deniedDomains.has(d));
    if (grown.length) {
      // A host one server must never reach is denied for every sandboxed server: the library's denials are per session.
      for (const d of grown) deniedDomains.add(d);
      const current = SandboxManager.getConfig() ?? BASE_CONFIG;
      SandboxManager.updateConfig({ ...current, network: { ...current.network, deniedDomains: [...deniedDomains] } });
    }
    const cwd = launch.cwd ?? process.cwd();
    const home = launch.env.HOME || os.homedir();
    const resolve = (p: string, base: string) => (p === '~' ? base : p.startsWith('~/') ? path.join(base, p.slice(2)) : path.resolve(cwd, p));
    const allow = (list: readonly string[]) => list.map((p) => resolve(p, home));
    // Denials only tighten: applied under both homes when they differ.
    const deny = (list: readonly string[]) => [...new Set(list.flatMap((p) => [resolve(p, home), resolve(p, os.homedir())]))];
    const filesystem = { denyRead: deny(settings.filesystem.denyRead), allowWrite: [...allow(settings.filesystem.allowWrite), ...(settings.argumentFolders?.writable ?? [])], denyWrite: deny(settings.filesystem.denyWrite) };
    const command = [launch.command, ...launch.args].map(shellQuote).join(' ');
    const wrapped = await SandboxManager.wrapWithSandboxArgv(command, undefined, { filesystem }, undefined, cwd, { commandId });
    if (settings.network.allowedDomains.length) SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...settings.network.allowedDomains] });
    // The environment is the launch's own (the library would hand back this process's), told to use the proxy where it may reach hosts.
    const [shell, ...args] = wrapped.argv;
    const env = settings.network.allowedDomains.length ? withProxyForNode(launch.env) : launch.env;
    const refusedSince = (since: number) => [
      ...new Set(
        SandboxManager.getSandboxViolationStore()
          .getViolationsForCommand(commandId)
          .filter((v) => v.timestamp.getTime() >= since)
          .map((v) => /^deny (?:network-outbound|http-request [A-Z]+) (\S+)/.exec(v.line)?.[1]?.replace(/^[a-z]+:\/\/([^/]+).*$/, '$1'))
          .filter((host): host is string => !!host),
      ),
    ];
    const fence: SandboxFence = { writable: filesystem.allowWrite, allowedDomains: settings.network.allowedDomains, refusedSince };
    return { kind: 'sandboxed', launch: { command: shell, args, env, cwd: launch.cwd }, release, fence };
  } catch (err) {
    release();
    return { kind: 'refused', reason: `This server is configured to run in a sandbox, which could not be set up: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The preload that routes Node's fetch() and http(s) through the sandbox's proxy (proxyPreload.ts; beside this file under tsc, and in dist/). */
export const PROXY_PRELOAD = path.join(__dirname, 'proxyPreload.js');

/**
 * The sandbox gives a server the network only through its proxy (HTTP_PROXY, HTTPS_PROXY, set by
 * the library), which Node ignores unless told: NODE_USE_ENV_PROXY=1 for a Node that
 * honours it, and our preload for what it does not (NODE_OPTIONS reaches every Node process the
 * server starts, npx and npm included). Whatever NODE_OPTIONS the server's own `env` set is kept.
 */
export function withProxyForNode(env: Readonly<Record<string, string>>): Record<string, string> {
  const quoted = `"${PROXY_PRELOAD.replace(/(["\\])/g, '\\$1')}"`;
  const options = [env.NODE_OPTIONS, `--require ${quoted}`].filter(Boolean).join(' ');
  return { ...env, NODE_USE_ENV_PROXY: '1', NODE_OPTIONS: options };
}

/** POSIX shell quoting: the library runs the command line through `bash -c`. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** What a denial looks like in a sandboxed server's stderr, and how to say it. */
const DENIALS: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /EROFS|read-only file system/i, what: 'a write outside the folders it may write' },
  { pattern: /ENETUNREACH|EAI_AGAIN|network is unreachable|temporary failure in name resolution|ECONNREFUSED|403 Forbidden|blocked by (the )?sandbox|proxy.*(denied|refused)/i, what: 'a network connection' },
  { pattern: /^bwrap: /, what: 'setting up the sandbox itself (bubblewrap)' },
];

/** A write error in a tool's error text: the code and the path it names (Node's "EROFS: read-only file system, open '/x'", Python's "[Errno 30] Read-only file system: '/x'"). */
/** Words a failed connection leaves in an error (Node, Python, curl): the name not resolved, the network unreachable. */
const NETWORK_ERROR = /\bfetch failed\b|\bE(?:NOTFOUND|AI_AGAIN|CONNREFUSED|NETUNREACH|HOSTUNREACH)\b|getaddrinfo|Temporary failure in name resolution|Name or service not known|Network is unreachable|Could not resolve host/i;
const WRITE_ERROR = /\b(EROFS|EACCES|EPERM)\b[^'"\n]*['"]([^'"\n]+)['"]|\[Errno (30|13|1)\][^'"\n]*['"]([^'"\n]+)['"]/;

/**
 * Why a sandboxed server's tool failed, when the sandbox is the likely reason: the
 * connections its proxy refused during the call, and a write error naming a path outside the
 * folders it may write. Sentences that begin "The sandbox denied"; none when nothing points at it.
 */
export function explainToolFailure(errorText: string, fence: SandboxFence, since: number): string[] {
  const notes: string[] = [];
  const refused = fence.refusedSince(since);
  if (refused.length) {
    notes.push(`The sandbox denied a connection to ${refused.slice(0, 3).join(', ')}${refused.length > 3 ? ` and ${refused.length - 3} more` : ''}: this server may reach only ${fence.allowedDomains.join(', ') || 'no host'} ("sandbox.network.allowedDomains").`);
  } else if (fence.allowedDomains.length === 0 && NETWORK_ERROR.test(errorText)) {
    // With no host allowed the server is not given the proxy: its connection fails inside the sandbox ("fetch failed"), and the proxy never sees it.
    notes.push('The sandbox denied the network: this server may reach no host ("sandbox.network" is "none" or allows no domain), so no connection it tries can be made.');
  }
  const write = WRITE_ERROR.exec(errorText);
  const target = write && (write[2] ?? write[4]);
  if (target && path.isAbsolute(target) && !fence.writable.some((w) => target === w || target.startsWith(w.endsWith(path.sep) ? w : w + path.sep))) {
    notes.push(`The sandbox denied a write to ${target}: this server may write only ${fence.writable.join(', ') || 'nowhere'} ("sandbox.filesystem.allowWrite").`);
  }
  return notes;
}

/**
 * The likely cause of a sandboxed server's failure, read from its last stderr lines: the first
 * line that looks like the sandbox denied something, as "the sandbox denied X: <line>".
 */
export function sandboxDenial(stderr: readonly string[]): string | undefined {
  for (const line of stderr) {
    const hit = DENIALS.find((d) => d.pattern.test(line));
    if (hit) return `Likely cause: the sandbox denied ${hit.what}: ${line.trim().slice(0, 300)}`;
  }
  return undefined;
}
