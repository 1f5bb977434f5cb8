// How much of a tool result a model gets: a budget of tokens per server and per tool, the head of
// a longer result cut on a clean boundary, and the note that tells the model how to read the rest.
import { headOf, totalLength } from '../render/longText';
import { boundedCount, safeEnd } from '../tokenRuns';

export { boundedCount, safeEnd };

import { DEFAULT_RESULT_TOKENS, MAX_RESULT_TOKENS, MIN_RESULT_TOKENS } from '../resultTokens';

export { DEFAULT_RESULT_TOKENS, MAX_RESULT_TOKENS, MIN_RESULT_TOKENS };

/**
 * What one image (or audio clip) costs, whatever its size: vendors scale an image down before
 * counting it. Anthropic's vision guide: tokens ≈ width × height / 750, images scaled to about
 * 1.15 megapixels, so at most about 1,600 tokens; OpenAI's high detail costs 85 + 170 per 512 px
 * tile, 765 for 1024×1024. The larger of the two, so a budget is never under-counted.
 */
export const MEDIA_TOKENS = 1_600;

/** What the note after a cut head costs, kept out of the head's share. */
const NOTE_TOKENS = 200;
/** A token is rarely more than this many characters: text past budget × this is never counted (counting 50 MiB would stall the host). */
const CHARS_PER_TOKEN_AT_MOST = 8;
/** Under this many characters the whole result is counted exactly (about 50 ms); over it the total is estimated from the head. */
const EXACT_COUNT_CHARS = 1 << 18;

/** Where a server's budgets come from: its definition (`resultTokens`, `toolResultTokens`) and where it was declared. */
export interface BudgetSource {
  readonly source: 'user' | 'workspace';
  readonly resultTokens?: number;
  readonly toolResultTokens?: Readonly<Record<string, number>>;
}

/**
 * The budget of one tool's results: its own entry, else its server's, else the user's default.
 * A workspace's server may lower its budget but never raise it past the user's default: the
 * repository that declares a server must not decide how much of the model's context it may fill.
 */
export function resultBudget(def: BudgetSource | undefined, tool: string, userDefault: number): number {
  const perTool = def?.toolResultTokens && Object.prototype.hasOwnProperty.call(def.toolResultTokens, tool) ? def.toolResultTokens[tool] : undefined;
  const own = perTool ?? def?.resultTokens;
  const chosen = own === undefined ? userDefault : def?.source === 'user' ? own : Math.min(own, userDefault);
  return clampBudget(chosen);
}

export function clampBudget(tokens: number): number {
  return Number.isFinite(tokens) ? Math.min(MAX_RESULT_TOKENS, Math.max(MIN_RESULT_TOKENS, Math.floor(tokens))) : DEFAULT_RESULT_TOKENS;
}

/** What a model gets of a text, and what was left out of it. */
export interface FittedText {
  readonly head: string;
  /** Tokens of `head` (o200k_base). */
  readonly headTokens: number;
  readonly totalChars: number;
  /** Tokens of the whole text: exact up to 256 Ki characters, estimated from the head past it. */
  readonly totalTokens: number;
  readonly exact: boolean;
  readonly cut: boolean;
}

/**
 * The longest head of `pieces` within `budget` tokens, cut on a line break (or a space) near the
 * end, never between the two halves of a surrogate pair. Bounded work whatever the length: only
 * budget × 8 characters are ever counted for the head.
 */
export function fitText(pieces: readonly string[], budget: number, count: (text: string) => number): FittedText {
  const totalChars = totalLength(pieces);
  const window = Math.max(1, budget) * CHARS_PER_TOKEN_AT_MOST;
  if (totalChars <= window) {
    const whole = pieces.join('');
    const tokens = count(whole);
    if (tokens <= budget) return { head: whole, headTokens: tokens, totalChars, totalTokens: tokens, exact: true, cut: false };
  }
  const share = Math.max(1, budget - NOTE_TOKENS);
  let head = headOf(pieces, Math.min(totalChars, window)).join('');
  let tokens = count(head);
  for (let i = 0; i < 8 && tokens > share; i++) {
    head = cleanCut(head, Math.floor(((head.length * share) / tokens) * 0.97));
    tokens = count(head);
  }
  // A UTF-16 unit is at most 3 tokens (a BMP character is at most 3 UTF-8 bytes; a pair, 4 bytes in 2 units).
  if (tokens > share) {
    head = cleanCut(head, Math.floor(share / 3));
    tokens = count(head);
  }
  const exactTotal = totalChars <= EXACT_COUNT_CHARS;
  const totalTokens = exactTotal ? count(pieces.join('')) : Math.round((totalChars / Math.max(1, head.length)) * tokens);
  return { head, headTokens: tokens, totalChars, totalTokens, exact: exactTotal, cut: true };
}

/**
 * `text` cut to at most `max` units: at the last line break in the final quarter, else the last
 * space in the final tenth, else at `max`, stepping back one unit rather than splitting a surrogate pair.
 */
export function cleanCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const limit = Math.max(0, max);
  const line = limit > 0 ? text.lastIndexOf('\n', limit - 1) : -1;
  if (line >= 0 && line + 1 >= limit * 0.75) return text.slice(0, line + 1);
  const space = limit > 0 ? text.lastIndexOf(' ', limit - 1) : -1;
  if (space >= 0 && space + 1 >= limit * 0.9) return text.slice(0, space + 1);
  return text.slice(0, safeEnd(text, limit));
}


/** What a budgeted result is made of: its text and how many images or audio clips it holds. */
export interface BudgetedResult {
  readonly text: string;
  readonly pieces?: readonly string[];
  readonly media?: number;
}

/** The verdict on one result: the model's text and, when it was cut, the facts the chat line and the note show. */
export interface ResultFit {
  readonly text: FittedText;
  readonly media: number;
  readonly mediaTokens: number;
  readonly budget: number;
  /** Text and media together. */
  readonly totalTokens: number;
  readonly cut: boolean;
}

/** Fits a rendered result into `budget`: each image or clip costs MEDIA_TOKENS, the text gets the rest (at least a quarter). */
export function fitResult(result: BudgetedResult, budget: number, count: (text: string) => number): ResultFit {
  const media = result.media ?? 0;
  const mediaTokens = media * MEDIA_TOKENS;
  const textBudget = Math.max(Math.floor(budget / 4), budget - mediaTokens);
  const text = fitText(result.pieces ?? [result.text], textBudget, count);
  const totalTokens = text.totalTokens + mediaTokens;
  return { text, media, mediaTokens, budget, totalTokens, cut: text.cut };
}

const n = (v: number) => v.toLocaleString('en-US');

/** The note after a cut head: what was shown, how much there is, and how to read the rest with the read tool. */
export function cutNote(fit: ResultFit, handle: string | undefined, readTool: string, notKept = 'the user has the whole result in the "MCP Tool Host" output channel'): string {
  const total = `${fit.text.exact ? '' : 'about '}${n(fit.totalTokens)} tokens, ${n(fit.text.totalChars)} characters`;
  const media = fit.media ? `; ${n(fit.media)} image(s) or audio clip(s) counted at ${n(MEDIA_TOKENS)} tokens each` : '';
  const head = `[The host cut this result to fit its budget of ${n(fit.budget)} tokens: shown are characters 0 to ${n(fit.text.head.length)} (${n(fit.text.headTokens)} tokens) of ${total}${media}.`;
  if (!handle) return `${head} The rest is too large to keep for reading; ${notKept}.]`;
  return `${head} The whole result is kept as handle "${handle}": call ${readTool} with {"handle": "${handle}", "offset": ${fit.text.head.length}} to read on, or {"handle": "${handle}", "pattern": "some text"} to find the lines that contain it.]`;
}
