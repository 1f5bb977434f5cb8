import type { Tool } from '@modelcontextprotocol/client';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import { inCallFrame } from './attemptCalls';
import type { ConnectionDeps } from './connectionDeps';
import type { FactRecorder } from './connectionFacts';
import type { CallOptions, PlainRequestOptions, TaskReference, TaskStatus } from './eraClient';
import type { LaunchAttempt } from './launchAttempt';
import type { PromptGate } from './promptGate';
import type { SdkClient } from './sdkClient';
import type { SkillsAccess } from './skills';
import type { ToolCatalog, ToolLister } from './toolCatalog';

/** What a running session shares with its connection: the prompts (one minute spans restarts), the tool list, the log. */
export interface SessionShared {
  readonly name: string;
  readonly prompts: PromptGate;
  readonly catalog: ToolCatalog;
  readonly log: ServerLog;
}

/** What the log says of a start whose 2026-07-28 probe went unanswered in time, by what a late answer showed. */
const GUESSED_ERA = {
  unknown: 'The server did not answer the 2026-07-28 probe in time: this start speaks the 2025 era, and the next start asks again.',
  modern: 'The server answered the 2026-07-28 probe only after the host went on without it: this start speaks the 2025 era, and the next start waits longer for its answer.',
  legacy: 'The server refused the 2026-07-28 probe only after the host went on without it: this start speaks the 2025 era, and the next start skips the probe.',
} as const;

/**
 * What may be asked of a server while one launch of it runs: calls, tasks, resources, skills and
 * its tool listings. A request the server refuses for its token signs in again (LaunchAttempt);
 * once the launch is over, nothing this session started changes the connection.
 */
export class RunningSession implements ToolLister {
  /** The session of a launch that connected: logs what the server declared, notes it for Run Doctor, remembers its era. */
  static connected(attempt: LaunchAttempt, client: SdkClient, shared: SessionShared & { readonly facts: FactRecorder; readonly deps: ConnectionDeps }): RunningSession {
    const { log, facts, deps } = shared;
    facts.noToolsCapability = !client.offersTools;
    if (!client.offersTools) log.warn('The server does not declare the "tools" capability; it offers no tools.');
    const info = client.info;
    const era = client.eraToRemember;
    if (era) deps.eraMemory?.save(era);
    if (client.eraGuessed) log.info(GUESSED_ERA[era ?? 'unknown']);
    log.info(`Connected: ${info.serverName ?? '?'} ${info.serverVersion ?? ''}, protocol ${info.protocolVersion ?? '?'}`);
    if (deps.rootsWhy) log.info(`Roots: ${deps.rootsWhy}`);
    return new RunningSession(attempt, client, shared);
  }

  constructor(private readonly _attempt: LaunchAttempt, private readonly _client: SdkClient, private readonly _shared: SessionShared) {}

  get offersTools(): boolean {
    return this._client.offersTools;
  }
  /** False once the launch is over (superseded, stopped or ended). */
  get current(): boolean {
    return !this._attempt.over;
  }

  /** One listing of the session's tools: the catalog tells a session's listing again by its lister (logged only when it changed). */
  listTools(): Promise<Tool[]> {
    return this._attempt.withSignIn(() => this._client.listTools(), this._info);
  }

  /** Lists the tools into the catalog; a 2026-07-28 listing that goes stale is fetched again (unless changes come pushed). */
  async list(): Promise<void> {
    const catalog = this._shared.catalog;
    await catalog.list(this, () => this.current);
    const ttlMs = this._client.listingTtlMs;
    if (ttlMs !== undefined && this.current) catalog.relistAfter(ttlMs, () => this.list());
  }

  skills(): SkillsAccess {
    return this._client.skills;
  }

  /** A request other than a call (resources, prompts, completion, logging); a refused token signs in again. */
  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>> {
    return this._attempt.withSignIn(() => this._client.request(method, params, options), this._info);
  }

  /** The resources whose updates the server should send (eraClient.ts). */
  watchResources(uris: readonly string[]): Promise<void> {
    return this._client.watchResources(uris);
  }

  /** The server's log level for this session (false: the server does not declare `logging`). */
  setLogLevel(level: string): Promise<boolean> {
    return this._attempt.withSignIn(() => this._client.setLogLevel(level), this._info);
  }

  /** The capabilities the server declared in this session, as sent. */
  get capabilities(): Readonly<Record<string, unknown>> {
    return this._client.info.capabilities ?? {};
  }

  /** No async frame of its own: every call runs this (BENCHMARKS.md case 2). */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    const { prompts, catalog } = this._shared;
    const call = prompts.begin(name, undefined, options.signal);
    const tool = catalog.find(name) ?? { name, inputSchema: { type: 'object' } };
    return inCallFrame(this._attempt, this._client, prompts, call, options.signal, this._info, () => this._client.callTool(tool, args, options, call));
  }

  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, tool: string): Promise<RawToolResult> {
    const prompts = this._shared.prompts;
    // While it is followed, what the task asks (naming it) belongs to it.
    const call = prompts.begin(tool, reference.taskId);
    return inCallFrame(this._attempt, this._client, prompts, call, options.signal, this._info, () => this._client.resumeTask(reference, options, call));
  }

  async taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    return this._attempt.withSignIn(() => this._client.taskStatus(reference, timeoutMs), this._info);
  }

  private readonly _info = (message: string) => this._shared.log.info(message);
}
