import type { Tool } from '@modelcontextprotocol/client';
import type { RawToolResult } from '../render/renderResult';
import { withLinkConsent } from './elicitationRequests';
import { LIST_TIMEOUT_MS, rawCall, rawRequest, resultOf, taskSupportOf, type CallOptions, type EraClient, type EraSession, type PlainRequestOptions, type TaskReference, type TaskStatus } from './eraClient';
import type { CallInFlight } from './promptGate';
import { TaskCalls } from './taskCalls';
import { listAllTools } from './toolListing';

/** No headers of a tool's own (shared, so frozen). */
const NO_HEADERS: Record<string, string> = Object.freeze({});

/**
 * The 2025 era (classic `initialize`, up to 2025-11-25): `tools/list` and `tools/call` go past
 * the SDK's Client on the same transport (rawAnswers.ts: its per-request validation costs 10x
 * our transport, BENCHMARKS.md case 2b); a tool that declares task support, on a server whose
 * `tasks` capability runs calls, is called as a task (taskCalls.ts).
 */
export class Era2025Client implements EraClient {
  readonly era = 'legacy';
  readonly listingTtlMs = undefined;
  private readonly _tasks: TaskCalls;
  /** The URIs this session subscribed to (resources/subscribe). */
  private readonly _subscribed = new Set<string>();

  constructor(private readonly _s: EraSession) {
    this._tasks = new TaskCalls(_s, undefined);
  }

  get offersTasks(): boolean {
    const tasks = this._s.client.getServerCapabilities()?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
    return tasks?.requests?.tools?.call !== undefined;
  }

  /** Every page, walked here: bounded in tools and bytes, each tool checked on its own (toolListing.ts). */
  listTools(): Promise<Tool[]> {
    const fetchPage = (cursor: string | undefined) => rawRequest(this._s, 'tools/list', cursor === undefined ? undefined : { cursor }, { timeoutMs: LIST_TIMEOUT_MS });
    return listAllTools(fetchPage, this._s.limits, this._s.log);
  }

  callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<RawToolResult> {
    const taskSupport = taskSupportOf(tool);
    if ((taskSupport === 'required' || taskSupport === 'optional') && this.offersTasks) return this._tasks.call(tool, args, taskSupport, options, NO_HEADERS, call);
    // A plain call runs against its total limit: a prompt of it says when the limit is near.
    call.endsAt = Date.now() + options.maxTotalTimeoutMs;
    // No async frame of its own: every 2025-era call runs this (BENCHMARKS.md case 2).
    const s = this._s;
    return withLinkConsent(() => rawCall(s, tool, args, options, call), tool.name, s.prompts.askFor({ kind: 'call', call }), s.log, s.completions, options.signal).then(resultOf);
  }

  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult> {
    return this._tasks.resume(reference, options, call);
  }

  taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    return this._tasks.status(reference, timeoutMs);
  }

  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>> {
    return rawRequest(this._s, method, params, options);
  }

  async setLogLevel(level: string): Promise<boolean> {
    if (!this._s.client.getServerCapabilities()?.logging) return false;
    await rawRequest(this._s, 'logging/setLevel', { level }, { timeoutMs: LIST_TIMEOUT_MS });
    return true;
  }

  /** A 2025-era server tells of list changes unasked. */
  listenForChanges(): void {}

  /** `resources/subscribe` for each URI newly watched, `resources/unsubscribe` for each no longer; one failure does not stop the others. */
  async watchResources(uris: readonly string[]): Promise<void> {
    const wanted = new Set(uris);
    const failures: string[] = [];
    const send = (method: string, uri: string) => this.request(method, { uri }, { timeoutMs: LIST_TIMEOUT_MS }).then(
      () => true,
      (err: unknown) => (failures.push(`${method} ${uri}: ${err instanceof Error ? err.message : String(err)}`), false),
    );
    const sends: Promise<unknown>[] = [];
    for (const uri of wanted) {
      if (this._subscribed.has(uri)) continue;
      this._subscribed.add(uri);
      sends.push(send('resources/subscribe', uri).then((ok) => ok || this._subscribed.delete(uri)));
    }
    for (const uri of [...this._subscribed]) {
      if (wanted.has(uri)) continue;
      this._subscribed.delete(uri);
      sends.push(send('resources/unsubscribe', uri));
    }
    await Promise.all(sends);
    if (failures.length > 0) throw new Error(failures.join('; '));
  }

  close(): void {}
}
