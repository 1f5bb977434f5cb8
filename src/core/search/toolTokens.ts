// How many tokens a tool's definition costs a model: counted with gpt-tokenizer's
// o200k_base encoding (the GPT-4o tokenizer); other models' tokenizers differ by a few percent.
// The encoding is ~2 MB of data: loaded through loadSearch() (src/core/search/load.ts), never at activation.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Tool } from '@modelcontextprotocol/client';
import { boundedCount } from '../tokenRuns';

/** The tokenizer the counts use, as the UI names it. */
export const TOKENIZER = 'o200k_base';

/** Special-token text ("<|endoftext|>") in a description is text, not a control token: never an error. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const counted = new WeakMap<object, number>();

/** Tokens of any text with o200k_base, in bounded time (a server's description may be one long run without spaces). */
export function textTokens(text: string): number {
  return boundedCount(text, rawTokens);
}

function rawTokens(text: string): number {
  return countTokens(text, AS_TEXT);
}

/**
 * Tokens of one tool as a request carries it: its name, its description and the JSON of its input
 * schema (what a model API receives; its own framing adds a few tokens per tool). Cached per
 * definition object: a server's new listing is new objects, counted again.
 */
export function toolTokens(definition: Pick<Tool, 'name' | 'description' | 'inputSchema'>): number {
  const known = counted.get(definition);
  if (known !== undefined) return known;
  const tokens = textTokens(definition.name) + textTokens(definition.description ?? '') + textTokens(JSON.stringify(definition.inputSchema ?? {}));
  counted.set(definition, tokens);
  return tokens;
}

/** Tokens of a list of tools (a server's, or what one request offers). */
export function toolsTokens(definitions: readonly Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): number {
  let total = 0;
  for (const d of definitions) total += toolTokens(d);
  return total;
}
