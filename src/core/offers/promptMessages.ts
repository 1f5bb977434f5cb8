import { maskSecrets } from '../render/secrets';
import { sanitizeLine, sanitizeText, visibleLine, visibleText } from '../render/sanitize';
import type { PromptMessagePart, ResourcePart } from './offerTypes';

/** The most a prompt's messages may weigh (text characters and decoded bytes together): a prompt is meant for a model's context. */
export const MAX_PROMPT_BYTES = 8 * 1024 * 1024;
/** Messages one prompt may have. */
export const MAX_PROMPT_MESSAGES = 1000;
/** A URI, a name or a MIME type of a message is cut past this. */
const MAX_LABEL_CHARS = 2000;

type Role = 'user' | 'assistant';

/**
 * A `prompts/get` result made safe to show and send: each text written with its invisible and
 * control characters as visible escapes (what the user sees is exactly what the model gets), the
 * server's secrets masked, images and audio decoded, embedded resources and links kept as data.
 * Anything malformed, or more than `maxBytes` in all, fails the whole prompt with a sentence that
 * says what: a prompt with a part left out would not be the prompt the server meant.
 */
export function safePromptMessages(result: Record<string, unknown>, secrets: readonly string[] | undefined, maxBytes = MAX_PROMPT_BYTES): { readonly description?: string; readonly messages: PromptMessagePart[] } | { readonly problem: string } {
  const raw = result.messages;
  if (!Array.isArray(raw)) return { problem: 'the answer has no "messages" list' };
  if (raw.length > MAX_PROMPT_MESSAGES) return { problem: `it has ${raw.length} messages, more than the ${MAX_PROMPT_MESSAGES} a prompt may have` };
  const budget = { left: maxBytes, max: maxBytes };
  const messages: PromptMessagePart[] = [];
  for (const [i, message] of raw.entries()) {
    const part = messagePart(message, secrets, budget);
    if (typeof part === 'string') return { problem: `message ${i + 1} ${part}` };
    messages.push(part);
  }
  const description = typeof result.description === 'string' ? maskSecrets(sanitizeLine(cut(result.description)), secrets) : undefined;
  return { ...(description && { description }), messages };
}

interface Budget {
  left: number;
  readonly max: number;
}

function messagePart(message: unknown, secrets: readonly string[] | undefined, budget: Budget): PromptMessagePart | string {
  if (!isObject(message)) return 'is not an object';
  const role = message.role;
  if (role !== 'user' && role !== 'assistant') return `has the role ${typeof role === 'string' ? `"${visibleLine(cut(role))}"` : 'missing'}, not "user" or "assistant"`;
  const content = message.content;
  if (!isObject(content)) return 'has no content object';
  switch (content.type) {
    case 'text': {
      if (typeof content.text !== 'string') return 'is text without a text';
      if (!spend(budget, content.text.length)) return tooBig(budget);
      return { role, kind: 'text', text: shownAndSent(content.text, secrets) };
    }
    case 'image':
    case 'audio': {
      const bytes = decoded(content.data, budget);
      if (typeof bytes === 'string') return `is ${content.type} whose ${bytes}`;
      return { role, kind: content.type, mimeType: mimeOf(content.mimeType) ?? `${content.type}/unknown`, bytes };
    }
    case 'resource': {
      const part = resourcePart(content.resource, secrets, budget);
      return typeof part === 'string' ? `is an embedded resource whose ${part}` : { role, kind: 'resource', part };
    }
    case 'resource_link': {
      if (typeof content.uri !== 'string' || content.uri === '') return 'is a resource link without a uri';
      const name = typeof content.name === 'string' ? content.name : content.uri;
      return { role: role as Role, kind: 'resource_link', uri: label(content.uri, secrets), name: label(name, secrets) };
    }
    default:
      return `has content of a type this host does not know (${typeof content.type === 'string' ? `"${visibleLine(cut(content.type))}"` : 'none'})`;
  }
}

function resourcePart(resource: unknown, secrets: readonly string[] | undefined, budget: Budget): ResourcePart | string {
  if (!isObject(resource)) return 'contents are not an object';
  if (typeof resource.uri !== 'string' || resource.uri === '') return 'uri is missing';
  const uri = label(resource.uri, secrets);
  const mimeType = mimeOf(resource.mimeType);
  if (typeof resource.text === 'string') {
    if (!spend(budget, resource.text.length)) return tooBig(budget).replace(/^is /, 'text is ');
    return { kind: 'text', uri, ...(mimeType && { mimeType }), text: shownAndSent(resource.text, secrets) };
  }
  const bytes = decoded(resource.blob, budget);
  if (typeof bytes === 'string') return bytes;
  return { kind: 'binary', uri, ...(mimeType && { mimeType }), bytes };
}

/**
 * The text as shown and as sent: hidden characters as visible escapes, secrets masked. A secret
 * that an invisible character splits would show in part around its escape: such text has its
 * invisible characters removed instead, and then the whole secret is masked.
 */
function shownAndSent(text: string, secrets: readonly string[] | undefined): string {
  const masked = maskSecrets(text, secrets);
  const sanitized = sanitizeText(masked);
  if ((secrets ?? []).some((s) => s.length >= 4 && sanitized.includes(s))) return maskSecrets(sanitized, secrets);
  return visibleText(masked);
}

/** Base64 data decoded within the budget (its size known before decoding), or why not. */
function decoded(data: unknown, budget: Budget): Uint8Array | string {
  if (typeof data !== 'string') return 'data is missing';
  const size = Math.floor((data.length * 3) / 4);
  if (!spend(budget, size)) return `data (about ${mib(size)}) passes the ${mib(budget.max)} a prompt may bring`;
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) return 'data is not base64';
  return new Uint8Array(Buffer.from(data, 'base64'));
}

function spend(budget: Budget, amount: number): boolean {
  budget.left -= amount;
  return budget.left >= 0;
}

const tooBig = (budget: Budget) => `is past the ${mib(budget.max)} a prompt may bring`;

/** A MIME type as a label: one line, no parameters past sense. */
function mimeOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = sanitizeLine(value).trim().slice(0, 200);
  return text || undefined;
}

/** A URI or a name of a message, shown as it is (escapes for what would be invisible), cut, the secrets masked. */
const label = (value: string, secrets: readonly string[] | undefined) => maskSecrets(visibleLine(cut(value)), secrets);

const cut = (text: string) => (text.length > MAX_LABEL_CHARS ? `${text.slice(0, MAX_LABEL_CHARS)}…` : text);
const mib = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
