// The words tool search reads: how text splits into terms, and how a term is normalised, the same
// for what is indexed and for a query.
import { EVERYDAY } from './everydayWords';

/** Words of a text: snake_case, camelCase, kebab-case and dotted names split; letters and digits only. */
export function splitWords(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Words too common in requests and descriptions to tell tools apart. */
const STOP_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'by', 'at', 'from', 'into', 'as', 'is', 'are', 'be', 'it', 'its',
  'this', 'that', 'these', 'those', 'my', 'me', 'i', 'we', 'our', 'you', 'your', 'can', 'could', 'would', 'should', 'please', 'do', 'does',
  'what', 'which', 'how', 'there', 'some', 'all', 'any', 'tool', 'tools', 'use', 'using', 'want', 'need', 'let', 'lets', 'get', 'show',
]);

/**
 * A term as the index keeps it: lower case, a light English stem (plural and -ing/-ed endings, so
 * "issues" finds "issue" and "listing" finds "list"), stop words dropped (null).
 */
export function searchTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  return stem(word);
}

/** searchTerm with a memo, for building one index: documents share most of their words, each is normalised once. */
export function memoSearchTerm(): (word: string) => string | null {
  const normal = new Map<string, string | null>();
  return (word) => {
    let t = normal.get(word);
    if (t === undefined) normal.set(word, (t = searchTerm(word)));
    return t;
  };
}

function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (/(ss|us|is)$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s')) w = w.slice(0, -1);
  else if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (/[ct]ion$/.test(w) && w.length > 6) w = w.slice(0, -3);
  // "complete", "completes", "completed", "completing" and "completion" meet at "complet".
  return w.endsWith('e') && w.length > 4 ? w.slice(0, -1) : w;
}

/** "running" -> "runn" -> "run"; "added" -> "add" stays. */
const undouble = (word: string) => (/([^aeiouldsfz])\1$/.test(word) ? word.slice(0, -1) : word);

/**
 * Words people use for what tools call otherwise (tuned on bench/search/requests.json, kept to
 * general software words): a query term also looks for these, at SYNONYM_WEIGHT.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  folder: ['directory'], dir: ['directory'],
  remove: ['delete'], erase: ['delete'], drop: ['delete'], discard: ['delete'], forget: ['delete', 'memory'],
  make: ['create'], new: ['create'], add: ['create', 'sum'],
  find: ['search'], look: ['search'], lookup: ['search'],
  save: ['write'], store: ['write'],
  open: ['read', 'create'], view: ['read'], load: ['read'],
  change: ['update', 'edit'], modify: ['update', 'edit'], edit: ['update'],
  comment: ['note'], reply: ['comment', 'note'],
  go: ['navigate'], visit: ['navigate'], browse: ['navigate'],
  http: ['url'], https: ['url'], link: ['url'], website: ['url'],
  picture: ['image'], photo: ['image'], png: ['image'], jpg: ['image'], jpeg: ['image'], gif: ['image'],
  big: ['size'], biggest: ['size'], large: ['size'], largest: ['size'], small: ['size'], smallest: ['size'],
  plus: ['sum'], total: ['sum'],
  pr: ['pull', 'request'], mr: ['merge', 'request'],
  ci: ['pipeline', 'workflow'], build: ['pipeline', 'workflow'],
  remember: ['memory', 'create'], recall: ['memory'],
  api: ['network', 'request'],
  execute: ['evaluate', 'run'], eval: ['evaluate'],
  bug: ['issue'], ticket: ['issue'],
};

/** The tables by stem too: "subtitles" finds what "subtitle" does. */
const byStem = (table: Record<string, readonly string[]>) => new Map(Object.entries(table).map(([word, also]) => [stem(word), also]));
const SYNONYMS_BY_STEM = byStem(SYNONYMS);
const EVERYDAY_BY_STEM = byStem(EVERYDAY);

/** How much a synonym's match counts against the word's own. */
export const SYNONYM_WEIGHT = 0.5;

/** File names in a request ("README.md", "logo.png") say "file". */
const FILE_NAME = /\b[\w-]+\.(md|txt|json|ya?ml|toml|ini|csv|tsv|log|xml|html?|css|[cm]?[jt]sx?|py|go|rs|java|rb|sh|pdf|png|jpe?g|gif|svg|webp|zip|gz|tar)\b/giu;

/** A query's words: splitWords, plus "todo" for "to-do" and "file" (and its extension) for each file name. */
export function queryWords(text: string): string[] {
  const words = splitWords(text);
  for (const [, a, b] of text.matchAll(/\b(\p{L}+)-(\p{L}+)\b/gu)) words.push(`${a}${b}`);
  for (const [, extension] of text.matchAll(FILE_NAME)) words.push('file', extension);
  return words;
}

/** A query term and its synonyms, normalised as the index is (searchTerm). */
export function queryTerms(term: string): string[] | null {
  const own = searchTerm(term);
  if (own === null) return null;
  const lower = term.toLowerCase();
  const more = SYNONYMS[lower] ?? SYNONYMS_BY_STEM.get(own) ?? [];
  const everyday = EVERYDAY[lower] ?? EVERYDAY_BY_STEM.get(own) ?? [];
  return [...new Set([own, ...more.map(stem), ...everyday.map(stem)])];
}
