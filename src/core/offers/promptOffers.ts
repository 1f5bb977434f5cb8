import { randomUUID } from 'node:crypto';
import { argumentsHash } from '../calls/auditHash';
import type { ServerConnection } from '../connection/serverConnection';
import { ServerState } from '../connection/serverState';
import type { Disposable, Event, Listener } from '../events';
import { shownName } from '../render/sanitize';
import { maskSecrets, safeText } from '../render/secrets';
import { completionValues, NO_COMPLETION } from './completionValues';
import { LOG_LEVELS, type CompletionAnswer, type CompletionRequest, type LogLevel, type OfferHost, type OfferList, type PromptEntry, type PromptOffers, type PromptOutcome, type PromptRequest, type RelayedPromptOutcome } from './offerTypes';
import { listAllPrompts } from './promptListing';
import { safePromptMessages } from './promptMessages';
import { PromptCache } from './promptCache';
import { inputRoundOf, type RelayedInput } from '../connection/eraClient';

/** A value with the server's secrets masked in each of its strings. */
function maskedJson(value: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' ? maskSecrets(v, secrets) : v)) as Record<string, unknown>;
}

/** How long one page of `prompts/list` or a `prompts/get` may take. */
export const PROMPT_TIMEOUT_MS = 60_000;
/** How long a completion may take: it is asked as the user types, and a late one is no use. */
export const COMPLETION_TIMEOUT_MS = 10_000;
/** A value the user types is sent at most this long (what a picker completes is short). */
const MAX_COMPLETION_INPUT_CHARS = 4096;

/** Builds the prompts side of what a server offers (later.ts). */
export function newPromptOffers(host: OfferHost): PromptOffers {
  return new ServerPromptOffers(host);
}

/**
 * A server's prompts, completions and log level through its running connection: listings walked
 * to the end within limits and cached until the server says they changed or restarts, every
 * `prompts/get` made safe to show and audited, completions capped, and the log level kept for
 * the host's life, applied again at each launch.
 */
class ServerPromptOffers implements PromptOffers {
  // Listeners kept here, not in an Emitter: the core's classes live in the activation bundle, and this lazy one may not copy them.
  private readonly _listeners = new Set<Listener<string>>();
  readonly onDidChange: Event<string> = (listener) => {
    this._listeners.add(listener);
    return { dispose: () => this._listeners.delete(listener) };
  };
  private readonly _cache: PromptCache;
  /** The log level asked per server name: a connection the pool replaces gets it too. */
  private readonly _levels = new Map<string, LogLevel>();
  private readonly _subscriptions: Disposable[] = [];

  constructor(private readonly _host: OfferHost) {
    this._cache = new PromptCache((server) => this._list(server), (server) => this._fire(server));
    const pool = _host.pool;
    this._watch(pool.connections);
    for (const connection of pool.connections) this._stateOf(connection);
    this._subscriptions.push(
      pool.onDidChange((connection) => {
        if (!connection) return this._watch(pool.connections);
        this._watch([connection]);
        this._stateOf(connection);
      }),
    );
  }

  prompts(server: string): Promise<OfferList<PromptEntry>> {
    return this._cache.get(server);
  }

  private async _list(server: string): Promise<OfferList<PromptEntry>> {
    const connection = this._running(server);
    if (!connection.serverCapabilities.prompts) return { items: [] };
    const fetchPage = (cursor: string | undefined) => connection.request('prompts/list', cursor === undefined ? undefined : { cursor }, { timeoutMs: PROMPT_TIMEOUT_MS });
    try {
      return await listAllPrompts(fetchPage, server, connection.log);
    } catch (err) {
      throw new Error(safeText(err instanceof Error ? err.message : String(err), connection.secrets), { cause: err });
    }
  }

  async get(request: PromptRequest): Promise<PromptOutcome> {
    // Without `input` no round comes back: the connection answers them.
    return (await this.getRelayed({ ...request, input: undefined })) as PromptOutcome;
  }

  async getRelayed(request: PromptRequest & { readonly input: RelayedInput | undefined }): Promise<RelayedPromptOutcome> {
    const started = new Date();
    const outcome = await this._get(request);
    this._host.audit?.append({
      time: started.toISOString(),
      callId: randomUUID().slice(0, 8),
      origin: request.origin,
      server: request.server,
      tool: 'prompts/get',
      argsHash: argumentsHash({ name: request.name, arguments: request.args }),
      decision: 'asked for by the user (a prompt)',
      durationMs: Date.now() - started.getTime(),
      outcome: outcome.kind,
    });
    return outcome;
  }

  private async _get(request: PromptRequest & { readonly input: RelayedInput | undefined }): Promise<RelayedPromptOutcome> {
    const connection = this._host.pool.get(request.server);
    if (!connection || !ServerState.isRunning(connection.state)) return { kind: 'failed', message: `Server "${shownName(request.server)}" is not running.` };
    if (!connection.serverCapabilities.prompts) return { kind: 'failed', message: `Server "${shownName(request.server)}" offers no prompts (it does not declare "prompts").` };
    for (const [key, value] of Object.entries(request.args)) {
      if (typeof value !== 'string') return { kind: 'failed', message: `The argument "${shownName(key)}" is not text: a prompt's arguments are strings.` };
    }
    const secrets = connection.secrets;
    let result: Record<string, unknown>;
    try {
      result = await connection.request('prompts/get', { name: request.name, arguments: { ...request.args } }, { timeoutMs: PROMPT_TIMEOUT_MS, signal: request.signal, input: request.input });
    } catch (err) {
      if (request.signal?.aborted) return { kind: 'failed', message: 'Cancelled.' };
      return { kind: 'failed', message: `prompts/get ${shownName(request.name)}: ${safeText(err instanceof Error ? err.message : String(err), secrets)}` };
    }
    const round = request.input && inputRoundOf(result);
    if (round) return { kind: 'input-required', round: { ...round, inputRequests: maskedJson(round.inputRequests, secrets) } };
    const safe = safePromptMessages(result, secrets);
    if ('problem' in safe) return { kind: 'failed', message: `The prompt "${shownName(request.name)}" was not used: ${safe.problem}.` };
    return { kind: 'ok', ...safe };
  }

  async complete(request: CompletionRequest): Promise<CompletionAnswer> {
    const connection = this._host.pool.get(request.server);
    if (!connection || !ServerState.isRunning(connection.state) || !connection.serverCapabilities.completions) return NO_COMPLETION;
    const value = request.argument.value.slice(0, MAX_COMPLETION_INPUT_CHARS);
    const params = {
      ref: request.ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: request.ref.name } : { type: 'ref/resource', uri: request.ref.uri },
      argument: { name: request.argument.name, value },
      ...(request.context && { context: { arguments: { ...request.context } } }),
    };
    try {
      const result = await connection.request('completion/complete', params, { timeoutMs: COMPLETION_TIMEOUT_MS, signal: request.signal });
      return completionValues(result, connection.secrets);
    } catch {
      // A completion is a suggestion: one that fails is none, never an error in the user's way.
      return NO_COMPLETION;
    }
  }

  async setLogLevel(server: string, level: LogLevel): Promise<void> {
    if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`"${shownName(String(level))}" is not a log level; one of: ${LOG_LEVELS.join(', ')}.`);
    this._levels.set(server, level);
    await this._host.pool.get(server)?.setLogLevel(level);
  }

  /** Each connection's notices and state, watched once (a connection the pool replaced is a new one). */
  private readonly _watched = new WeakSet<ServerConnection>();
  private readonly _states = new Map<string, string>();

  private _watch(connections: readonly ServerConnection[]): void {
    for (const connection of connections) {
      if (this._watched.has(connection)) continue;
      this._watched.add(connection);
      this._subscriptions.push(connection.onOfferNotice((notice) => notice.kind === 'prompts-changed' && this._cache.changed(connection.name)));
    }
  }

  /** A new launch, a stop or a crash: what was listed belongs to the session that was. A level asked of a replaced connection is asked of its successor. */
  private _stateOf(connection: ServerConnection): void {
    const level = this._levels.get(connection.name);
    if (level !== undefined && connection.logLevel !== level) void connection.setLogLevel(level);
    const kind = connection.state.kind;
    const before = this._states.get(connection.name);
    this._states.set(connection.name, kind);
    if (before !== undefined && before !== kind && kind !== 'running') this._cache.restarted(connection.name);
  }

  private _fire(server: string): void {
    for (const listener of [...this._listeners]) {
      try {
        listener(server);
      } catch {
        // One listener's failure is its own: the others still hear of the change.
      }
    }
  }

  private _running(server: string): ServerConnection {
    const connection = this._host.pool.get(server);
    if (!connection || !ServerState.isRunning(connection.state)) throw new Error(`Server "${shownName(server)}" is not running.`);
    return connection;
  }

  dispose(): void {
    for (const s of this._subscriptions.splice(0)) s.dispose();
    this._cache.dispose();
    this._listeners.clear();
  }
}
