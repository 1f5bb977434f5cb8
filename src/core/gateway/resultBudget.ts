// What the gateway hands a client's model of a tool result: within the tool's token budget (the
// same per-server and per-tool budgets as @mcp), and past it the head of the result, its size and a
// handle; the gateway's read tool pages or searches through the rest and hands over any content
// block left out. Kept results are bound to the client whose call produced them.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { READ_RESULT_SCHEMA, readResult } from '../chat/readResult';
import { boundedCount, cutNote, DEFAULT_RESULT_TOKENS, fitText, MEDIA_TOKENS, resultBudget } from '../chat/resultBudget';
import { ResultStore } from '../chat/resultStore';
import type { RenderedResult } from '../render/renderResult';
import { loadSearch } from '../search/load';
import type { GatewayDeps } from './gatewayTypes';
import type { GatewayToolDefinition } from './offeredDefinition';

/**
 * The read tool's name on the gateway. It holds no `_`, and every name of a server's tool does
 * (`<server>_<tool>`), so no server can ever offer a tool of this name; `-` only, which every
 * client's model API accepts in a tool name (a `.` is refused by some).
 */
export const GATEWAY_READ_TOOL = 'read-result';

/** All clients' kept results together, in UTF-16 characters (128 MiB), and how many: the oldest go first, whoever kept them. */
const STORE_LIMITS = { maxChars: 64 * 1024 * 1024, maxResults: 200 };
const SCOPE = { here: 'for this client', valid: 'to the client connection whose call produced it' };

/** A binary resource's base64 text is counted at this many characters a token (o200k_base gives about 2.5 to 3 on random base64): never under-counted. */
const BASE64_CHARS_PER_TOKEN = 2;

const stores = new WeakMap<GatewayDeps, ResultStore>();
const storeOf = (deps: GatewayDeps) => stores.get(deps) ?? stores.set(deps, new ResultStore(STORE_LIMITS, SCOPE)).get(deps)!;
const countTokens = (text: string) => boundedCount(text, loadSearch().textTokens);
const n = (v: number) => v.toLocaleString('en-US');

/** Whether the gateway budgets results (and so offers its read tool): `serve --result-tokens off` turns budgets off. */
export function budgetsOn(deps: GatewayDeps): boolean {
  return deps.resultTokens?.() !== undefined;
}

/** The budget of one tool's results: its server's entry, else the gateway's default; undefined when budgets are off. */
function budgetOf(deps: GatewayDeps, server: string, tool: string): number | undefined {
  const fallback = deps.resultTokens?.();
  return fallback === undefined ? undefined : resultBudget(deps.pool.get(server)?.definition, tool, fallback);
}

/** The read tool, as tools/list offers it. */
export function gatewayReadTool(): GatewayToolDefinition {
  return {
    name: GATEWAY_READ_TOOL,
    title: 'Read a cut result',
    description: 'Reads more of a tool result the gateway cut to fit its token budget: a page from an offset, the lines that contain a text, or one content block (an image, audio clip or binary resource) the cut result names as left out. Use the handle the cut result named.',
    inputSchema: {
      ...READ_RESULT_SCHEMA,
      required: ['handle'],
      properties: { ...READ_RESULT_SCHEMA.properties, part: { type: 'integer', minimum: 0, description: 'Instead of a page: the content block of this number, one the cut result names as left out, as the server sent it.' } },
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

interface Part {
  readonly index: number;
  readonly block: Record<string, unknown>;
  readonly tokens: number;
  readonly chars: number;
  readonly what: string;
}

/** A content block that is not text the model reads: an image or audio clip (a fixed cost), or a binary embedded resource (its base64). */
function partOf(block: unknown, index: number): Part | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const b = block as Record<string, unknown>;
  if ((b.type === 'image' || b.type === 'audio') && typeof b.data === 'string') return { index, block: b, tokens: MEDIA_TOKENS, chars: b.data.length, what: b.type };
  const resource = b.type === 'resource' && typeof b.resource === 'object' && b.resource !== null ? (b.resource as Record<string, unknown>) : undefined;
  if (resource && typeof resource.blob === 'string') return { index, block: b, tokens: Math.ceil(resource.blob.length / BASE64_CHARS_PER_TOKEN), chars: resource.blob.length, what: 'binary resource' };
  return undefined;
}

/**
 * `result` as the client's model gets it: whole when it fits the tool's budget (text, images and
 * audio at a fixed cost each, binary resources by their base64); else the head of its text, the
 * images and clips that fit beside it, and a note with the size and the handle to read the rest by.
 * A cut result carries no structured content (it is in the kept text), and is marked an error so a
 * client that checks a result against the tool's output schema does not refuse it.
 */
export function fitForModel(deps: GatewayDeps, result: CallToolResult, rendered: RenderedResult, owner: { readonly server: string; readonly tool: string; readonly client?: string }): CallToolResult {
  const budget = budgetOf(deps, owner.server, owner.tool);
  if (budget === undefined) return result;
  const parts = (Array.isArray(result.content) ? result.content : []).flatMap((block, i) => partOf(block, i) ?? []);
  const partTokens = parts.reduce((sum, p) => sum + p.tokens, 0);
  const pieces = rendered.pieces ?? [rendered.text];
  // A token is at least one UTF-8 byte and a UTF-16 unit at most three: a text this short fits uncounted (most results).
  if (3 * textLength(pieces) + partTokens <= budget) return result;
  const whole = fitText(pieces, Math.max(1, budget - partTokens), countTokens);
  if (!whole.cut && partTokens <= budget) return result;
  // Parts in order while they take at most three quarters of the budget: the text always gets a quarter.
  const shown: Part[] = [];
  let used = 0;
  for (const p of parts) {
    if (p.block.type === 'resource' || used + p.tokens > (budget * 3) / 4) continue;
    shown.push(p);
    used += p.tokens;
  }
  const left = parts.filter((p) => !shown.includes(p));
  const head = fitText(pieces, budget - used, countTokens);
  const handle = storeOf(deps).put(pieces, owner, { blocks: new Map(left.map((p) => [p.index, p.block])), chars: left.reduce((sum, p) => sum + p.chars, 0) });
  const fit = { text: head, media: 0, mediaTokens: used, budget, totalTokens: whole.totalTokens + partTokens, cut: true };
  const notKept = `ask the tool for less (a smaller range, a filter), or read the whole result with the host's own CLI or VS Code`;
  const note = cutNote({ ...fit, text: { ...head, exact: whole.exact && head.exact } }, handle, GATEWAY_READ_TOOL, notKept).slice(0, -1);
  const partsNote = [
    shown.length > 0 ? ` Shown after this text: content block(s) ${shown.map((p) => `${p.index} (${p.what})`).join(', ')}, at ${n(MEDIA_TOKENS)} tokens each.` : '',
    left.length > 0 && handle ? ` Left out: content block(s) ${left.map((p) => `${p.index} (${p.what}, ${n(p.tokens)} tokens)`).join(', ')}; read one with {"handle": "${handle}", "part": ${left[0].index}}.` : '',
  ].join('');
  return {
    content: [{ type: 'text', text: `${head.head}\n${note}${partsNote}]` }, ...(shown.map((p) => p.block) as CallToolResult['content'])],
    ...((result.isError || result.structuredContent !== undefined) && { isError: true }),
  };
}

function textLength(pieces: readonly string[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/** Answers the read tool for one client: a page, a search, or a content block left out; another client's handle is unknown here. */
export function readForModel(deps: GatewayDeps, args: Record<string, unknown>, client: string | undefined): CallToolResult {
  const budget = (server: string, tool: string) => budgetOf(deps, server, tool) ?? DEFAULT_RESULT_TOKENS;
  const store = storeOf(deps);
  if (args.part === undefined) {
    const text = readResult(store, args, budget, countTokens, GATEWAY_READ_TOOL, client);
    return { content: [{ type: 'text', text }], ...(/^Not (read|searched):/.test(text) && { isError: true }) };
  }
  const found = store.get(args.handle, client);
  if (!found.ok) return { content: [{ type: 'text', text: found.error }], isError: true };
  const block = typeof args.part === 'number' ? found.kept.parts.get(args.part) : undefined;
  if (block === undefined) {
    const named = [...found.kept.parts.keys()];
    const text = named.length ? `Not read: "part" must be the number of a content block the cut result named as left out: ${named.join(', ')}.` : 'Not read: no content block was left out of that result; read its text with "offset" or "pattern".';
    return { content: [{ type: 'text', text }], isError: true };
  }
  return { content: [block as CallToolResult['content'][number]] };
}
