import { randomUUID } from 'node:crypto';
import { inputRequired, specTypeSchemas, type InputRequiredResult, type InputRequests, type ServerContext } from '@modelcontextprotocol/server';
import type { InputRound, RelayedInput } from '../connection/eraClient';
import { MAX_INPUT_ROUNDS } from '../connection/promptLimits';
import { sanitizeLine, sanitizeText, shownName } from '../render/sanitize';
import { APPROVAL_INPUT, argsDigest, modernDeclared, type ApprovalRounds } from './approvalRounds';

/** The most requests one relayed round may embed, and the most characters they may take together. */
const MAX_REQUESTS = 16;
const MAX_ROUND_CHARS = 256 * 1024;
/** A server's requestState goes to the client (sealed) and back: larger is a server using the client as its storage. */
const MAX_STATE_CHARS = 64 * 1024;
const MAX_KEY_CHARS = 200;
const MAX_FORM_DEPTH = 6;

/** The embedded requests the protocol defines, each with the capability a client declares for it. */
const KINDS: Readonly<Record<string, 'elicitation' | 'sampling' | 'roots'>> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };

/** What a relayed round is for: one tool call or one prompt, with these arguments. */
export interface RelayTarget {
  readonly what: 'tool' | 'prompt';
  readonly server: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** The gateway's requestState of a relayed round (signed by ApprovalRounds' codec, so the client cannot change it). */
interface RelayState {
  readonly kind: 'relay';
  readonly what: 'tool' | 'prompt';
  readonly server: string;
  readonly name: string;
  /** sha256 of the canonical arguments. */
  readonly args: string;
  /** The server's own requestState, sealed: the client passes it back without reading it. */
  readonly sealed?: string;
  /** The keys the client was asked: only their answers reach the server. */
  readonly asked: readonly string[];
  /** The person approved this call in an earlier round: the retry is not asked again. */
  readonly approved: boolean;
  /** How many rounds were relayed so far. */
  readonly round: number;
  readonly nonce: string;
}

/** How a request of a 2026-07-28 client is sent on: what to send the server, whether it was approved, which round. */
export type Resumed =
  | { readonly kind: 'resumed'; readonly input: RelayedInput; readonly approved: boolean; readonly round: number }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * A backend's input_required rounds for a 2026-07-28 client (which takes no server-to-client
 * requests), relayed rather than answered by the host: the client gets the server's requests,
 * checked (only the kinds the protocol defines, only those the client declared, forms only, within
 * size limits), and a requestState of the gateway's own, signed and single-use, naming the exact
 * call, the keys asked, whether the person already approved it, and the server's own state sealed.
 * The client's retry is checked against it and sends the server the answers to what it asked, with
 * its state byte for byte. Undefined for a request of an earlier era (its client is asked by pushed requests).
 */
export function relayedInput(rounds: ApprovalRounds, ctx: ServerContext, target: RelayTarget): Resumed | undefined {
  const declared = modernDeclared(ctx);
  if (!declared) return undefined;
  const capabilities = inputCapabilities(declared);
  const state = ctx.mcpReq.requestState<unknown>();
  if (!isRelayState(state)) {
    // A first send. Answers the client gives up front go as it sent them (the protocol lets a client answer
    // before it is asked, and the server judges them); an approval round's answers are the gateway's own.
    const given = state === undefined ? withoutKey(ctx.mcpReq.inputResponses, APPROVAL_INPUT) : undefined;
    return { kind: 'resumed', input: { capabilities, ...(given && { retry: { inputResponses: given } }) }, approved: false, round: 0 };
  }
  if (state.what !== target.what || state.server !== target.server || state.name !== target.name || state.args !== argsDigest(target.args)) {
    return { kind: 'refused', reason: 'Not run: the answers sent back (requestState) were given for another call (another tool or prompt, or other arguments). Call again to be asked about this one.' };
  }
  if (!rounds.spend(state.nonce)) return { kind: 'refused', reason: 'Not run: these answers were already sent, and one answer runs one round. Call again to be asked anew.' };
  const given = ctx.mcpReq.inputResponses ?? {};
  const inputResponses = Object.fromEntries(state.asked.filter((key) => Object.hasOwn(given, key)).map((key) => [key, given[key]]));
  const retry = { inputResponses, ...(state.sealed !== undefined && { requestState: rounds.unseal(state.sealed) }) };
  return { kind: 'resumed', input: { capabilities, retry }, approved: state.approved, round: state.round };
}

/**
 * The client's answer to a server's round that asks: the requests it may answer and the gateway's
 * state, or why the round is not passed on (a sentence for the client).
 */
export async function relayRound(rounds: ApprovalRounds, ctx: ServerContext, target: RelayTarget, round: InputRound, resumed: { readonly approved: boolean; readonly round: number }): Promise<InputRequiredResult | RelayProblem> {
  const next = resumed.round + 1;
  if (next > MAX_INPUT_ROUNDS) return { problem: `the server still asked for input after ${MAX_INPUT_ROUNDS} rounds; the call was stopped.` };
  const requests = relayedRequests(round.inputRequests, modernDeclared(ctx) ?? {});
  if ('problem' in requests) return { ...requests, problem: `the server asked for input the gateway does not pass on: ${requests.problem}` };
  const own = round.requestState;
  if (own !== undefined && typeof own !== 'string') return { problem: 'the server asked for input with a requestState that is not a string.' };
  if (own !== undefined && own.length > MAX_STATE_CHARS) return { problem: `the server asked for input with a requestState too large to pass on (${Math.ceil(own.length / 1024)} KB, at most ${MAX_STATE_CHARS / 1024} KB).` };
  const state: RelayState = {
    kind: 'relay',
    what: target.what,
    server: target.server,
    name: target.name,
    args: argsDigest(target.args),
    ...(own !== undefined && { sealed: rounds.seal(own) }),
    asked: Object.keys(requests),
    approved: resumed.approved,
    round: next,
    nonce: randomUUID(),
  };
  return inputRequired({ inputRequests: requests as InputRequests, requestState: await rounds.mint(state, ctx) });
}

/** The capabilities the server is told the client has for embedded requests: forms (not links), sampling, roots, as it declared them. */
function inputCapabilities(declared: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(formsDeclared(declared) && { elicitation: { form: {} } }),
    ...(isObject(declared.sampling) && { sampling: {} }),
    ...(isObject(declared.roots) && { roots: {} }),
  };
}

/** Elicitation declared for forms: `form`, or neither mode named (the spec reads that as forms). */
function formsDeclared(declared: Record<string, unknown>): boolean {
  const e = declared.elicitation;
  return isObject(e) && (e.form !== undefined || e.url === undefined);
}

/**
 * Why a round is not passed on; `missing`: the capabilities the client did not declare that were all
 * the round asked for (the client is then answered MissingRequiredClientCapabilityError, -32021).
 */
export interface RelayProblem {
  readonly problem: string;
  readonly missing?: readonly string[];
}

/** The round's requests the client may answer, each checked; a round the gateway does not pass on says why. */
function relayedRequests(inputRequests: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> | RelayProblem {
  const entries = Object.entries(inputRequests);
  if (entries.length > MAX_REQUESTS) return { problem: `it embeds ${entries.length} requests at once (at most ${MAX_REQUESTS}).` };
  const chars = JSON.stringify(inputRequests).length;
  if (chars > MAX_ROUND_CHARS) return { problem: `what it asks is too large (${Math.ceil(chars / 1024)} KB, at most ${MAX_ROUND_CHARS / 1024} KB).` };
  const can = { elicitation: formsDeclared(declared), sampling: isObject(declared.sampling), roots: isObject(declared.roots) };
  const relayed: Record<string, unknown> = {};
  const withheld: string[] = [];
  const missing = new Set<string>();
  for (const [key, entry] of entries) {
    const shownKey = `"${shownName(key.slice(0, MAX_KEY_CHARS))}"`;
    if (key.length > MAX_KEY_CHARS) return { problem: `an input's key is longer than ${MAX_KEY_CHARS} characters (${shownKey}...).` };
    const method = isObject(entry) ? entry.method : undefined;
    const kind = typeof method === 'string' && Object.hasOwn(KINDS, method) ? KINDS[method] : undefined;
    if (!kind) return { problem: `input ${shownKey} is a request of kind "${sanitizeLine(String(method)).slice(0, 60)}"; only elicitation/create, sampling/createMessage and roots/list are passed on.` };
    const params = (entry as { params?: unknown }).params ?? {};
    const fault = paramsFault(kind, params);
    if (fault) return { problem: `input ${shownKey} (${method}) is not a request the protocol allows: ${fault}.` };
    const link = kind === 'elicitation' && (params as { mode?: unknown }).mode === 'url';
    if (!can[kind] || link) {
      withheld.push(`${shownKey} (${link ? 'a page to open' : method})`);
      if (!link) missing.add(kind);
      continue;
    }
    relayed[key] = { method, params: kind === 'elicitation' ? safeForm(params as Record<string, unknown>) : params };
  }
  if (Object.keys(relayed).length === 0) {
    const problem = `it asked only for what this client cannot answer: ${withheld.join(', ')} (a kind the client did not declare, or a page to open, which the gateway does not pass on).`;
    return missing.size === withheld.length ? { problem, missing: [...missing] } : { problem };
  }
  return relayed;
}

/** Why the params of an embedded request break the protocol's schema, if they do. */
function paramsFault(kind: 'elicitation' | 'sampling' | 'roots', params: unknown): string | undefined {
  if (kind === 'roots') return isObject(params) ? undefined : 'its params are not an object';
  const schema = kind === 'elicitation' ? specTypeSchemas.ElicitRequestParams : specTypeSchemas.CreateMessageRequestParams;
  const checked = schema['~standard'].validate(params);
  if (checked instanceof Promise) return 'its params could not be checked';
  return checked.issues ? sanitizeLine(checked.issues.map((i) => i.message).join('; ')).slice(0, 300) : undefined;
}

/** A form as a person reads it: its message and the titles and descriptions of its schema made safe to show. */
function safeForm(params: Record<string, unknown>): Record<string, unknown> {
  // A form is flat (the schema check holds it so): what lies deeper (a `_meta`) is passed as it is.
  const safe = (value: unknown, key: string | undefined, depth: number): unknown => {
    if (typeof value === 'string') return key === 'message' || key === 'title' || key === 'description' ? sanitizeText(value) : value;
    if (depth > MAX_FORM_DEPTH || (!Array.isArray(value) && !isObject(value))) return value;
    if (Array.isArray(value)) return value.map((v) => safe(v, undefined, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safe(v, k, depth + 1)]));
  };
  return safe(params, undefined, 0) as Record<string, unknown>;
}

function isRelayState(value: unknown): value is RelayState {
  if (!isObject(value)) return false;
  return value.kind === 'relay' && (value.what === 'tool' || value.what === 'prompt') && typeof value.server === 'string' && typeof value.name === 'string' && typeof value.args === 'string' && Array.isArray(value.asked) && value.asked.every((k) => typeof k === 'string') && typeof value.approved === 'boolean' && typeof value.round === 'number' && typeof value.nonce === 'string' && (value.sealed === undefined || typeof value.sealed === 'string');
}

function withoutKey(answers: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  if (!answers) return undefined;
  const kept = Object.fromEntries(Object.entries(answers).filter(([k]) => k !== key));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
