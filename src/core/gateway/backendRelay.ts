import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import type { Elicitor, FormRequest, FormValue } from '../elicitation/formElicitation';
import type { UrlRequest } from '../elicitation/urlElicitation';
import { LOG_LEVELS, type LogLevel } from '../offers/offerTypes';
import { sanitizeLine, sanitizeText, shownName } from '../render/sanitize';
import type { ServerLog } from '../serverLog';
import type { Sampler, SamplingAnswer, SamplingParams } from '../connection/samplingRequests';

/** How long the person at the client has to answer a server's form. */
const ANSWER_MS = 10 * 60_000;
/** A relayed log message is cut here: it is a line of a log, not a document. */
const MAX_MESSAGE_CHARS = 8 * 1024;
/** A form's texts are cut here, and its schema read no deeper (a form is flat: formFields checked it). */
const MAX_FORM_TEXT = 2_000;
const MAX_SCHEMA_DEPTH = 6;
/** A sampling request, and the model's answer, may be this large (as JSON): a prompt with a few images, not a data dump. */
export const MAX_SAMPLING_BYTES = 1024 * 1024;
/** Where a relayed sampling request names the server that asks (its own `_meta` is not passed on). */
const SERVER_META = 'mcp-tool-host/server';

/** The client of one gateway call, as a backend's prompts and log messages reach it. */
export interface CallClient {
  /** Which client it is (its gateway session): two calls of one client are one client. */
  readonly session: object;
  /** Puts a form to the client; absent when the client did not declare elicitation. */
  readonly elicit?: (params: ElicitRequestFormParams, signal: AbortSignal | undefined, timeoutMs: number) => Promise<{ action: string; content?: Record<string, unknown> }>;
  /** Has the client's model answer a sampling request; absent when the client did not declare sampling (or cannot be sent one). */
  readonly sample?: (params: SamplingParams, signal: AbortSignal | undefined, timeoutMs: number) => Promise<SamplingAnswer>;
  /** The client's request is of the 2026-07-28 revision: nothing can be sent to it during a call, declared or not. */
  readonly modern?: boolean;
  /** Hears that the server needed something of the client it could not be sent (`sampling`): the client may not have declared it. */
  readonly lacks?: (capability: 'sampling') => void;
  /** Sends the client a log message of the server (the client's chosen level decides). */
  readonly log: (level: LogLevel, data: string) => void;
}

/**
 * What a server sends during a call the gateway made for a client, passed on to that client: its
 * forms (`elicitation/create`), its sampling requests and its log messages. The connection has
 * already let a form or a sampling request through its gate (only during the server's own calls,
 * at most so many a call and a minute), and masked the server's secrets in every string of it,
 * split ones too (safeElicitation, safeSampling), as its log masks a message. A server's request
 * does not say which of its calls it belongs to, so it goes to the client when all the server's
 * calls in flight are that one client's; with calls of several clients it is refused (it could
 * reach the wrong person). Links (URL mode) are declined: the gateway's client is not asked to
 * open a page a server names.
 */
export class BackendRelay {
  private readonly _calls = new Map<string, CallClient[]>();

  constructor(private readonly _say: (line: string) => void = () => undefined) {}

  /** Runs `work` (a call of `server` for `client`) with the server's prompts and messages going to that client. */
  async during<T>(server: string, client: CallClient, work: () => Promise<T>): Promise<T> {
    const calls = this._calls.get(server) ?? [];
    calls.push(client);
    this._calls.set(server, calls);
    try {
      return await work();
    } finally {
      calls.splice(calls.indexOf(client), 1);
      if (calls.length === 0) this._calls.delete(server);
    }
  }

  /** The host's way to answer a server's form (ConnectionDeps.elicit) when it serves as the gateway. */
  readonly elicit: Elicitor = async (request) => {
    const clients = this._clientsOf(request.server);
    const who = `"${shownName(request.server)}" asked for input`;
    if (clients.length !== 1) {
      this._say(`gateway: ${who} ${clients.length === 0 ? 'outside any gateway call' : 'while calls of more than one client ran (it cannot say whose)'}: declined.`);
      return { action: 'decline' };
    }
    const client = clients[0];
    if (request.mode === 'url') {
      this._say(`gateway: ${who} with a link to open: declined (the gateway passes on forms only).`);
      return { action: 'decline' };
    }
    if (!client.elicit) {
      this._say(`gateway: ${who}, and its client did not declare elicitation: declined.`);
      return { action: 'decline' };
    }
    const schema = safeSchema(request.schema, 0);
    if (!isObject(schema)) return { action: 'decline' };
    try {
      const answer = await client.elicit({ mode: 'form', message: request.message, requestedSchema: schema as ElicitRequestFormParams['requestedSchema'] }, request.callsEnded, ANSWER_MS);
      if (answer.action === 'accept') return { action: 'accept', content: formContent(request, answer.content) };
      return { action: answer.action === 'cancel' ? 'cancel' : 'decline' };
    } catch (err) {
      this._say(`gateway: ${who}; asking the client failed (${sanitizeLine(err instanceof Error ? err.message : String(err))}): cancelled.`);
      return { action: 'cancel' };
    }
  };

  /**
   * The host's way to answer a server's sampling request (ConnectionDeps.sample) when it serves as
   * the gateway: the calling client's model answers, if it declared sampling. The client sees the
   * request as the server's (named in its system prompt and `_meta`), with no context of other
   * servers asked for: to the client the gateway is all of them. Refusals throw, saying why.
   */
  readonly sample: Sampler = async (request) => {
    const clients = this._clientsOf(request.server);
    const who = `"${shownName(request.server)}" asked the client's model for a completion (sampling)`;
    const refuse = (why: string, toServer: string): never => {
      this._say(`gateway: ${who}${why}: refused.`);
      throw new Error(toServer);
    };
    if (clients.length !== 1) {
      const when = clients.length === 0 ? 'outside any gateway call' : 'while calls of more than one client ran (it cannot say whose)';
      return refuse(` ${when}`, `The gateway refused the sampling request: it came ${when}.`);
    }
    const client = clients[0];
    if (!client.sample) {
      client.lacks?.('sampling');
      if (client.modern) return refuse(', and its client speaks 2026-07-28, which cannot be sent a request during a call', "The gateway cannot pass on the sampling request: the gateway's client speaks the 2026-07-28 revision, where nothing can be sent to it during a call.");
      return refuse(', and its client did not declare sampling', "The gateway cannot pass on the sampling request: the gateway's client did not declare sampling.");
    }
    const size = jsonBytes(request.params);
    if (size > MAX_SAMPLING_BYTES) return refuse(` with ${size} bytes`, `The gateway refused the sampling request: it is larger than the ${MAX_SAMPLING_BYTES / 1024 / 1024} MiB the gateway passes on (${size} bytes).`);
    let answer: SamplingAnswer;
    try {
      answer = await client.sample(asServers(request.server, request.params), request.callsEnded, ANSWER_MS);
    } catch (err) {
      const why = sanitizeLine(err instanceof Error ? err.message : String(err)).slice(0, MAX_FORM_TEXT);
      return refuse(`; the client did not answer (${why})`, `The gateway's client did not answer the sampling request: ${why}`);
    }
    const answered = jsonBytes(answer);
    if (answered > MAX_SAMPLING_BYTES) return refuse(`; the client's answer has ${answered} bytes`, `The gateway refused the client's answer to the sampling request: it is larger than the ${MAX_SAMPLING_BYTES / 1024 / 1024} MiB the gateway passes on.`);
    return answer;
  };

  /** A server's log (ConnectionDeps.log) that also passes its own messages, "[level] text", to the clients of its calls in flight. */
  logFor(server: string, base: ServerLog): ServerLog {
    const relay = (line: string) => {
      const match = SERVER_MESSAGE.exec(line);
      if (!match) return;
      const data = sanitizeText(match[2]).slice(0, MAX_MESSAGE_CHARS);
      for (const client of this._clientsOf(server)) client.log(match[1] as LogLevel, data);
    };
    return {
      info: (m) => (base.info(m), relay(m)),
      warn: (m) => (base.warn(m), relay(m)),
      error: (m) => (base.error(m), relay(m)),
      stderr: (l) => base.stderr(l),
    };
  }

  private _clientsOf(server: string): CallClient[] {
    const sessions = new Map<object, CallClient>();
    for (const c of this._calls.get(server) ?? []) if (!sessions.has(c.session)) sessions.set(c.session, c);
    return [...sessions.values()];
  }
}

/** The request as the client is shown it: whose it is, said first in its system prompt and in `_meta`, and no other server's context. */
function asServers(server: string, params: SamplingParams): SamplingParams {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the server's own _meta stays with it: its keys mean nothing the client should act on
  const { _meta, ...asked } = params;
  const said = `The MCP server "${shownName(server)}" asks this through the MCP Tool Host gateway.`;
  return {
    ...asked,
    systemPrompt: asked.systemPrompt === undefined ? said : `${said}\n\n${asked.systemPrompt}`,
    ...(asked.includeContext !== undefined && { includeContext: 'none' }),
    _meta: { [SERVER_META]: server },
  };
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');

/** How the connection writes a server's `notifications/message` in its log (sdkClient.ts). */
const SERVER_MESSAGE = new RegExp(`^\\[(${LOG_LEVELS.join('|')})\\] ([\\s\\S]*)$`);

/** Whether a message at `level` reaches a client that asked for `least` (none asked: all do). */
export function levelPasses(level: LogLevel, least: LogLevel | undefined): boolean {
  return least === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(least);
}

/**
 * The server's form schema for the client: its shape kept (a titled enum stays titled, defaults stay),
 * its titles and descriptions made safe to show and cut. formFields already refused any form the spec
 * does not allow, so this reads a flat object of a few levels.
 */
function safeSchema(value: unknown, depth: number): unknown {
  if (depth > MAX_SCHEMA_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((v) => safeSchema(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'title' || key === 'description') && typeof v === 'string') out[key] = sanitizeText(v).slice(0, MAX_FORM_TEXT);
    else if (key === 'enumNames' && Array.isArray(v)) out[key] = v.map((n) => (typeof n === 'string' ? sanitizeLine(n).slice(0, MAX_FORM_TEXT) : n));
    else out[key] = safeSchema(v, depth + 1);
  }
  return out;
}

/** The client's answer, kept to the form's own fields and to values a form may hold. */
function formContent(request: FormRequest | UrlRequest, content: Record<string, unknown> | undefined): Record<string, FormValue> {
  const fields = new Set('fields' in request ? request.fields.map((f) => f.name) : []);
  const kept: Record<string, FormValue> = {};
  for (const [name, value] of Object.entries(content ?? {})) {
    if (!fields.has(name)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') kept[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) kept[name] = value as string[];
  }
  return kept;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
