import type { CreateMessageRequestParams, CreateMessageResult, CreateMessageResultWithTools } from '@modelcontextprotocol/client';
import { MAX_MASK_DEPTH, maskDeep, safeText } from '../render/secrets';
import type { Admitted } from './promptGate';

export type SamplingParams = CreateMessageRequestParams;
export type SamplingAnswer = CreateMessageResult | CreateMessageResultWithTools;

/** A server's `sampling/createMessage` during its calls, as the connection hands it to the host. */
export interface SamplingRequest {
  readonly server: string;
  /** As the server sent them, their texts made safe to show and its secrets masked (safeSampling). */
  readonly params: SamplingParams;
  /** The calls it may belong to (their tools): a server's request does not say which of its calls asks. */
  readonly calls: readonly string[];
  /** Aborts once those calls all ended, or the server withdrew its request. */
  readonly callsEnded: AbortSignal | undefined;
}

/**
 * The host's way to have a model answer a server's request (only the gateway has one: it passes
 * the request to its client). Throws to refuse it, its message saying why: the server gets it as
 * the error of its request. Without a Sampler the host does not declare sampling.
 */
export type Sampler = (request: SamplingRequest) => Promise<SamplingAnswer>;

/** Asks the host for a request the gate let through (the connection names the server); `withdrawn`: the server cancelled it. */
export type SampleForCalls = (params: SamplingParams, admitted: Admitted, withdrawn: AbortSignal | undefined) => Promise<SamplingAnswer>;

/** What the server is told when the gate declined its request (the server's log says which limit). */
export const SAMPLING_DECLINED = 'The host declined the sampling request: a server may ask only during its own calls, and only so often (see the host\'s log).';

/**
 * The params of a request embedded in a 2026-07-28 `input_required` round, which nothing checked
 * yet: the shape the spec requires (messages, maxTokens), else why not.
 */
export function samplingParams(params: unknown): SamplingParams | string {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return 'its params are not an object';
  const { messages, maxTokens } = params as { messages?: unknown; maxTokens?: unknown };
  if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'object' && m !== null && 'role' in m && 'content' in m)) return 'its messages are not a list of messages';
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) return 'its maxTokens is not a positive integer';
  return params as SamplingParams;
}

/**
 * The request with every text it carries (its messages', its system prompt) made safe to show, and
 * every string in it (stop sequences, metadata, model hints, keys: all of it goes to the client) free
 * of the server's secrets: a model reads no hidden characters (tags, direction overrides) a person
 * reviewing it cannot see. Throws, saying why, for a request too deep to be checked for the secrets
 * (the server gets that as the error of its request).
 */
export function safeSampling(params: SamplingParams, secrets: readonly string[]): SamplingParams {
  const maskBlock = (block: unknown) => (isTextBlock(block) ? { ...block, text: safeText(block.text, secrets) } : block);
  const messages = params.messages.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map(maskBlock) : maskBlock(m.content) }));
  const shown = { ...params, messages, ...(params.systemPrompt !== undefined && { systemPrompt: safeText(params.systemPrompt, secrets) }) } as SamplingParams;
  const masked = maskDeep(shown, secrets);
  if (masked === undefined) throw new Error(`The host refused the sampling request: it nests deeper than ${MAX_MASK_DEPTH} levels, too deep to be checked for the server's secrets.`);
  return masked;
}

const isTextBlock = (b: unknown): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string';
