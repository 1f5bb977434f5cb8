import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { CallPipeline, type CallPipelineOptions } from '../../src/core/calls/callPipeline';
import type { TaskBoard } from '../../src/core/calls/taskBoard';
import type { OAuthHost } from '../../src/core/auth/ports';
import type { ApprovalDecision, ApprovalRequest, AuditLog, CallSink } from '../../src/core/calls/ports';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers, type ServerDefinition } from '../../src/core/config/serverConfig';
import { rootsOffer } from '../../src/core/config/roots';
import { ServerPool } from '../../src/core/connection/serverPool';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import type { Elicitor } from '../../src/core/elicitation/formElicitation';
import type { RuleSet } from '../../src/core/policy/ruleSource';
import type { RuleBindings } from '../../src/core/policy/ruleBindings';

export const ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures/servers');
export const DEMO_SERVER = path.join(ROOT, 'dist/demo-server.js');
export const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Extra connection dependencies for a test host (all optional; the defaults are the core's). */
export interface HostOptions {
  /** deps.handshakeTimeoutMs: how long `initialize` may take. */
  readonly handshakeTimeoutMs?: number;
  /** deps.maxMessageBytes: the largest single message accepted from a stdio server. */
  readonly maxMessageBytes?: number;
  /** deps.roots: what the host answers to `roots/list` (undefined: no roots capability). */
  readonly roots?: () => { uri: string; name?: string }[];
  /** deps.oauth: signing in to remote servers that require OAuth (undefined: a 401 is a plain error). */
  readonly oauth?: OAuthHost;
  /** Roots from each server's definition, as the extension decides them (config/roots.ts), for the folder ROOT. */
  readonly rootsFromConfig?: boolean;
  /** The pipeline's task board (tasks the servers run). */
  readonly tasks?: TaskBoard;
  /** Answers servers' forms and links (elicitation); without it the host offers none. */
  readonly elicit?: Elicitor;
  /** The argument rules, rule bindings and `${workspaceFolder}` of the pipeline. */
  readonly argumentRules?: RuleSet;
  readonly ruleBindings?: RuleBindings;
  readonly workspaceFolder?: string;
  /** Where the pipeline writes its audit records. */
  readonly audit?: AuditLog;
  /** The "approve every call" setting. */
  readonly approveAll?: boolean;
  /** The user chose "an offline sandboxed server is closed-world" (mcpToolHost.sandbox.offlineIsClosedWorld). */
  readonly offlineSandboxClosed?: boolean;
  /** Where the servers are defined (default: the user's own settings). */
  readonly source?: 'user' | 'workspace';
  /** Answers each approval (instead of the fixed `answer`). */
  readonly answer?: (request: ApprovalRequest) => ApprovalDecision;
  /** The values of `${input:...}` variables (secrets the connections mask). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** How a tool differs from a lockfile (the pipeline's lockDrift). */
  readonly lockDrift?: CallPipelineOptions['lockDrift'];
}

/** A pool, a pipeline with a scripted approver, and everything they wrote, for one test. */
export function makeHost(servers: Record<string, unknown>, answer: ApprovalDecision = 'deny', options: HostOptions = {}) {
  const logs: string[] = [];
  const approvals: ApprovalRequest[] = [];
  const events: string[] = [];
  const validator = new SchemaValidator();
  const pool = new ServerPool((name, definition) => ({
    ...(options.rootsFromConfig && configuredRoots(definition)),
    validator,
    clientVersion: 'test',
    log: {
      info: (m) => logs.push(`${name} info ${m}`),
      warn: (m) => logs.push(`${name} warn ${m}`),
      error: (m) => logs.push(`${name} error ${m}`),
      stderr: (m) => logs.push(`${name} stderr ${m}`),
    },
    resolveLaunch: async (def) => resolveLaunch(def, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env, ...(options.inputs && { inputs: options.inputs }) }),
    ...(options.handshakeTimeoutMs !== undefined && { handshakeTimeoutMs: options.handshakeTimeoutMs }),
    ...(options.maxMessageBytes !== undefined && { maxMessageBytes: options.maxMessageBytes }),
    ...(options.roots !== undefined && { roots: options.roots }),
    ...(options.oauth !== undefined && { oauth: options.oauth }),
    ...(options.elicit !== undefined && { elicit: options.elicit }),
  }));
  const sink: CallSink = {
    begin: (h) => events.push(`begin ${h.server}/${h.tool}`),
    line: (_id, t) => events.push(t),
    progress: (_id, p) => events.push(`progress ${p.progress}/${p.total ?? '?'}`),
    end: (_id, s) => void events.push(`end ${s.join('').split('\n')[0]}`),
  };
  const pipeline = new CallPipeline(pool, validator, { approve: async (r) => (approvals.push(r), options.answer ? options.answer(r) : answer) }, sink, {
    saveBinary: () => async (data, mime, hint) => ({ file: `/saved/${hint}.${mime.split('/')[1]} (${data.length} bytes)` }),
    tasks: options.tasks,
    argumentRules: options.argumentRules,
    ruleBindings: options.ruleBindings,
    workspaceFolder: () => options.workspaceFolder,
    approveAll: () => options.approveAll === true,
    offlineSandboxClosed: () => options.offlineSandboxClosed === true,
    audit: options.audit,
    lockDrift: options.lockDrift,
  });
  pool.apply(parseServers(servers, options.source ?? 'user'), { autoStart: false });
  return { pool, pipeline, logs, approvals, events, async close() { await pool.stopAll(); pool.dispose(); } };
}

/** The workspace folder makeHost uses (ROOT), as the host offers it in `roots/list`. */
export const workspaceRoots = () => [{ uri: pathToFileURL(ROOT).href, name: 'root' }];

export const node = (script: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [script], ...extra });

/** Whether `pid` runs (Linux: read from /proc). A zombie, exited but not yet reaped (a sandbox's init may be slow to), does not. */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs; false when some still runs after `ms`. */
export async function allGone(pids: readonly number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!pids.some(alive)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !pids.some(alive);
}

/** Polls `probe` every 25 ms until it holds, or fails naming `what`. */
export async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The roots and the reason the extension would give a server of this definition (workspace: ROOT). */
function configuredRoots(definition: ServerDefinition): { roots?: () => { uri: string; name?: string }[]; rootsWhy: string } {
  const offer = rootsOffer(definition, () => [{ name: 'root', path: ROOT }]);
  return offer.kind === 'offered' ? { roots: offer.roots, rootsWhy: offer.why } : { rootsWhy: offer.why };
}

export interface OAuthFixtureStats {
  registrations: number;
  authorizations: number;
  tokenGrants: number;
  refreshGrants: number;
  pkceFailures: number;
  unauthorized: number;
  clientAuthFailures: number;
  clientCredentialGrants: number;
  jwtBearerGrants: number;
  jwtBearerRefusals: number;
  dpopTokens: number;
  dpopRequests: number;
  dpopRefusals: number;
  /** Requests that presented a DPoP-bound token with the Bearer scheme (refused). */
  boundTokenAsBearer: number;
  /** The key thumbprint each DPoP-bound token was bound to. */
  thumbprints: string[];
  insufficientScope: number;
  /** The client_id and scope of each authorization request, in order. */
  clientIds: string[];
  scopes: (string | null)[];
  /** tools/list and tools/call requests answered (what --migrate-after, --revoke-after and --refuse-after count). */
  toolRequests: number;
  /** At the second authorization server (--migrate-after): registrations, authorizations, code grants. */
  as2Registrations: number;
  as2Authorizations: number;
  as2TokenGrants: number;
  /** Client ids one authorization server was shown that belong to the other (SEP-2352: never). */
  foreignClients: number;
  /** The path of each authorization request (/authorize, /as2/authorize), in order. */
  authorizePaths: string[];
  /** refresh_token grants asked for, whether they succeeded or not (refreshGrants counts the granted ones). */
  refreshAttempts: number;
  /** Refresh tokens one authorization server was shown that the other issued (SEP-2352: never). */
  foreignRefreshTokens: number;
  /** The application_type of each dynamic registration (null: none sent). */
  applicationTypes: (string | null)[];
  /** Token requests answered with a 307 elsewhere (--token-redirect, --refresh-redirect). */
  tokenRedirects: number;
}

/** The OAuth fixture (authorization server + protected MCP endpoint) in its own process. */
export async function startOAuthFixture(...args: string[]): Promise<{ url: string; child: ChildProcess; stats(): Promise<OAuthFixtureStats>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'oauth-server.cjs'), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  // Ended and gone: a test after this one may count the processes left.
  const stop = () => (child.kill(), exited);
  return { url: `${base}/mcp`, child, stats: async () => (await (await fetch(`${base}/stats`)).json()) as OAuthFixtureStats, stop };
}

/**
 * What a browser does with a sign-in page (OAuth): records it in `opened`, loads it (the fixture
 * approves at once) and follows the redirect back to the host's loopback receiver. `tamper`
 * changes the request first.
 */
export function signInBrowser(opened: string[], tamper?: (url: URL) => void): OAuthHost['openBrowser'] {
  return async (url) => {
    opened.push(url);
    const target = new URL(url);
    tamper?.(target);
    void (async () => {
      const answer = await fetch(target, { redirect: 'manual' });
      await answer.text();
      const location = answer.headers.get('location');
      if (location) await (await fetch(location)).text();
    })().catch((err: unknown) => opened.push(`browser failed: ${String(err)}`));
    return true;
  };
}
