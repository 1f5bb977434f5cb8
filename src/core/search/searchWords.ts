// The words tool search reads: how text splits into terms, and how a term is normalised, the same
// for what is indexed and for a query.

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

function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  return word;
}

/** "running" -> "runn" -> "run"; "added" -> "add" stays. */
const undouble = (word: string) => (/([^aeiouldsfz])\1$/.test(word) ? word.slice(0, -1) : word);
