// Replays the mix through the real call pipeline and three real servers (child processes), with a
// simulated user who answers every prompt by what the call's label says the user meant, and
// counts the prompts and the calls that ran without one although the user did not mean to allow them.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { CallPipeline, type CallOutcome } from '../../src/core/calls/callPipeline';
import type { ApprovalDecision, ApprovalRequest, CallSink } from '../../src/core/calls/ports';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { ServerPool } from '../../src/core/connection/serverPool';
import { RateLimiter } from '../../src/core/policy/rateLimiter';
import { RuleSet } from '../../src/core/policy/ruleSource';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { RULES_FILE, fillPlaceholders, makeWorkspace, type Mix, type MixCall } from './mix';

const ROOT = path.resolve(__dirname, '../../..');
const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const FIXTURES = path.join(ROOT, 'test/fixtures/servers');

/**
 * How the user is set up:
 * - `no rules`: every prompt is answered once ("Allow Once" or "Deny", by the label);
 * - `grants only`: an allowed call's prompt is answered "Always Allow This Tool" (what users do), the rest "Deny";
 * - `rules`: the rule set (rules.json) decides first, the remaining prompts are answered as with no rules;
 * - `rules and grants`: the rule set, and the user still answers "Always Allow This Tool" where offered.
 */
export type FatigueMode = 'no rules' | 'grants only' | 'rules' | 'rules and grants';
export const FATIGUE_MODES: readonly FatigueMode[] = ['no rules', 'grants only', 'rules', 'rules and grants'];

/** One call of a replay: what the user meant, whether it asked, and how it ended. */
export interface ReplayedCall {
  readonly index: number;
  readonly call: MixCall;
  readonly prompted: boolean;
  readonly outcome: CallOutcome['kind'];
  /** Sent to the server (it ran, whatever the server then said). */
  readonly ran: boolean;
}

export interface FatigueResult {
  readonly mode: FatigueMode;
  readonly rules: number;
  readonly calls: readonly ReplayedCall[];
  readonly prompts: number;
  /** Prompts for calls the user meant to allow anyway: the fatigue. */
  readonly needlessPrompts: number;
  readonly ran: number;
  /** Ran without a prompt, and the user did not mean to allow it. */
  readonly silentOverreach: readonly ReplayedCall[];
  /** Calls the user meant to allow that did not run (a rule denied them): must be none. */
  readonly allowedRefused: readonly ReplayedCall[];
  /** Requests the web hosts other than the allowed ones received (the loopback server counts them). */
  readonly otherHostRequests: number;
  readonly ms: number;
}

/** The benchmark's rule set (rules.json). */
export function fatigueRules(): unknown[] {
  return JSON.parse(fs.readFileSync(RULES_FILE, 'utf8')) as unknown[];
}

const ALLOWED_HOSTS = new Set(['docs.example']);
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined };
const sink: CallSink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };
/** The replay measures approvals, not the rate limit. */
const NO_RATE_LIMIT = { burst: 1_000_000, perSecond: 1_000_000 };

/** The web every fetch reaches (the fetch server sends each URL's host in the Host header). */
async function startWeb(pages: Record<string, string>): Promise<{ port: number; otherHosts: () => number; close: () => Promise<void> }> {
  let other = 0;
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!ALLOWED_HOSTS.has(host)) other++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`${pages[host] ?? 'A page of another site.'} (${host}${req.url ?? ''})`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, otherHosts: () => other, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Replays `calls` (of `mix`) once, in a fresh project folder with freshly started servers. */
export async function replay(mix: Mix, calls: readonly MixCall[], mode: FatigueMode): Promise<FatigueResult> {
  const space = makeWorkspace(mix);
  const web = await startWeb(mix.pages);
  const validator = new SchemaValidator();
  const pool = new ServerPool(() => ({
    validator,
    clientVersion: 'fatigue-bench',
    log: quiet,
    resolveLaunch: async (def) => resolveLaunch(def, { workspaceFolders: [{ name: 'project', path: space.project }], env: process.env }),
  }));
  const node = process.execPath;
  pool.apply(
    parseServers(
      {
        // HOME is a folder of the replay: a call that escapes writes nothing of the real user's.
        filesystem: { command: node, args: [FILESYSTEM, space.project], env: { HOME: space.home } },
        notes: { command: node, args: [path.join(FIXTURES, 'notes.cjs')], env: { NOTES_SEED: JSON.stringify(mix.notes) } },
        fetch: { command: node, args: [path.join(FIXTURES, 'fetch.cjs')], env: { FETCH_VIA: `127.0.0.1:${web.port}` } },
      },
      'user',
    ),
    { autoStart: false },
  );
  const withRules = mode === 'rules' || mode === 'rules and grants';
  const rules = withRules ? fatigueRules() : [];
  let current: MixCall | undefined;
  let asked = 0;
  const approver = {
    approve: async (_request: ApprovalRequest): Promise<ApprovalDecision> => {
      asked++;
      if (!current?.allowed) return 'deny';
      return mode === 'grants only' || mode === 'rules and grants' ? 'allow-tool-always' : 'allow-once';
    },
  };
  const ruleSet = withRules ? new RuleSet(() => [{ scope: 'user', source: 'user settings', raw: rules }]) : undefined;
  const pipeline = new CallPipeline(pool, validator, approver, sink, {
    rateLimiter: new RateLimiter(() => NO_RATE_LIMIT),
    argumentRules: ruleSet,
    workspaceFolder: () => space.project,
  });
  try {
    const problems = ruleSet?.problems ?? [];
    if (problems.length > 0) throw new Error(`The bench's rules have problems: ${problems.map((p) => p.message).join(' ')}`);
    for (const name of ['filesystem', 'notes', 'fetch']) {
      const server = pool.get(name)!;
      await server.start();
      if (server.state.kind !== 'running') throw new Error(`The bench's server "${name}" did not start: ${JSON.stringify(server.state)}`);
    }
    const started = performance.now();
    const replayed: ReplayedCall[] = [];
    for (const [index, call] of calls.entries()) {
      current = call;
      const before = asked;
      const outcome = await pipeline.call({ server: call.server, tool: call.tool, args: fillPlaceholders(call.args, space), origin: 'api' });
      const ran = outcome.kind === 'ok' || outcome.kind === 'tool-error' || outcome.kind === 'protocol-error' || outcome.kind === 'timeout';
      replayed.push({ index, call, prompted: asked > before, outcome: outcome.kind, ran });
    }
    const ms = performance.now() - started;
    return {
      mode,
      rules: rules.length,
      calls: replayed,
      prompts: asked,
      needlessPrompts: replayed.filter((c) => c.prompted && c.call.allowed).length,
      ran: replayed.filter((c) => c.ran).length,
      silentOverreach: replayed.filter((c) => c.ran && !c.prompted && !c.call.allowed),
      allowedRefused: replayed.filter((c) => c.call.allowed && !c.ran),
      otherHostRequests: web.otherHosts(),
      ms,
    };
  } finally {
    await pool.stopAll();
    pool.dispose();
    await web.close();
    space.dispose();
  }
}

/** One line per call that ran silently outside what the user allowed: which call, and why it should not have. */
export function overreachLines(result: FatigueResult): string[] {
  return result.silentOverreach.map((c) => `#${c.index} ${c.call.server}/${c.call.tool} ${JSON.stringify(c.call.args)}${c.call.why ? ` (${c.call.why})` : ''}: ${c.outcome}`);
}
