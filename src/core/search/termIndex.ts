// The inverted index under tool search: BM25 over weighted fields with prefix and fuzzy matches,
// scored as minisearch scores them, but each term's postings are precomputed at build (one array of
// documents, one of field-weighted scores) and a search adds into arrays kept between searches, so
// one search over 10,000 tools allocates next to nothing. minisearch's radix tree finds the prefix
// and fuzzy neighbours of a term.
import SearchableMap from 'minisearch/SearchableMap';

/** BM25 as minisearch has it (k, b, and d: the floor a matching term adds). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;
/** How much a prefix match and a fuzzy match count, at distance 0, against an exact one. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/** A term's documents and, per document, its BM25 over the fields it is in, each times the field's boost. */
interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

/** One term of a query, as search looks for it. */
export interface QueryTerm {
  readonly term: string;
  /** How much the term counts (a synonym counts less than the word itself). */
  readonly boost: number;
  readonly prefix: boolean;
  /** The share of the term's length that may be edits (0.2), or false. */
  readonly fuzzy: number | false;
}

export interface TermHit {
  readonly doc: number;
  readonly score: number;
}

/**
 * An index of `count` documents made of fields of words: `words(doc)` are each field's words, and
 * `term(word)` the term a word is indexed as (null: not indexed, a stop word); `boosts` per field.
 */
export class TermIndex {
  private readonly _terms = new SearchableMap<Postings>();
  private readonly _score: Float64Array;
  /** Per document: how many distinct query terms matched it, and the last that did. */
  private readonly _matched: Uint16Array;
  private readonly _lastTerm: Int32Array;
  private readonly _touched: Int32Array;

  constructor(count: number, words: (doc: number) => readonly (readonly string[])[], term: (word: string) => string | null, boosts: readonly number[]) {
    const nFields = boosts.length;
    // A field's length is its count of distinct words (stop words too), as BM25 in minisearch counts it.
    const lengths = new Float64Array(count * nFields);
    // Per term, in document order: (document, field, frequency) triples, and per field its document count.
    const entries = new Map<string, { triples: number[]; df: number[] }>();
    const tf = new Map<string, number>();
    for (let doc = 0; doc < count; doc++) {
      words(doc).forEach((fieldWords, field) => {
        lengths[doc * nFields + field] = new Set(fieldWords).size;
        tf.clear();
        for (const word of fieldWords) {
          const t = term(word);
          if (t) tf.set(t, (tf.get(t) ?? 0) + 1);
        }
        for (const [t, n] of tf) {
          let e = entries.get(t);
          if (!e) entries.set(t, (e = { triples: [], df: new Array<number>(nFields).fill(0) }));
          e.triples.push(doc, field, n);
          e.df[field]++;
        }
      });
    }
    const average = boosts.map((_, f) => {
      let sum = 0;
      for (let doc = 0; doc < count; doc++) sum += lengths[doc * nFields + f];
      return sum / Math.max(1, count);
    });
    for (const [term, { triples, df }] of entries) {
      const idf = df.map((n) => Math.log(1 + (count - n + 0.5) / (n + 0.5)));
      const docs: number[] = [];
      const scores: number[] = [];
      for (let i = 0; i < triples.length; i += 3) {
        const doc = triples[i];
        const field = triples[i + 1];
        const n = triples[i + 2];
        const norm = BM25.k * (1 - BM25.b + (BM25.b * lengths[doc * nFields + field]) / average[field]);
        const score = boosts[field] * idf[field] * (BM25.d + (n * (BM25.k + 1)) / (n + norm));
        // A document's fields come one after the other: its score is their sum.
        if (docs.length > 0 && docs[docs.length - 1] === doc) scores[scores.length - 1] += score;
        else {
          docs.push(doc);
          scores.push(score);
        }
      }
      this._terms.set(term, { docs: Int32Array.from(docs), scores: Float64Array.from(scores) });
    }
    this._score = new Float64Array(count);
    this._matched = new Uint16Array(count);
    this._lastTerm = new Int32Array(count).fill(-1);
    this._touched = new Int32Array(count);
  }

  /**
   * The best `max` documents for the query terms (OR), best first: each term adds its BM25 (prefix and
   * fuzzy neighbours at less), and a document's sum is multiplied by how many distinct terms matched it.
   */
  search(query: readonly QueryTerm[], max: number): TermHit[] {
    let touched = 0;
    const distinct = new Map<string, number>();
    for (const q of query) {
      let id = distinct.get(q.term);
      if (id === undefined) distinct.set(q.term, (id = distinct.size));
      const add = (postings: Postings | undefined, weight: number) => {
        if (!postings) return;
        const { docs, scores } = postings;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i];
          if (this._lastTerm[doc] === -1) this._touched[touched++] = doc;
          if (this._lastTerm[doc] < id) {
            this._matched[doc]++;
            this._lastTerm[doc] = id;
          }
          this._score[doc] += weight * scores[i];
        }
      };
      add(this._terms.get(q.term), q.boost);
      const prefixed = q.prefix ? this._terms.atPrefix(q.term) : undefined;
      const fuzzyDistance = q.fuzzy === false ? 0 : Math.min(MAX_FUZZY, Math.round(q.term.length * q.fuzzy));
      const fuzzy = fuzzyDistance > 0 ? this._terms.fuzzyGet(q.term, fuzzyDistance) : undefined;
      if (prefixed) {
        for (const [term, postings] of prefixed) {
          const distance = term.length - q.term.length;
          if (distance === 0) continue;
          fuzzy?.delete(term);
          add(postings, (q.boost * PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance));
        }
      }
      if (fuzzy) {
        for (const [term, [postings, distance]] of fuzzy) {
          if (distance === 0) continue;
          add(postings, (q.boost * FUZZY_WEIGHT * term.length) / (term.length + distance));
        }
      }
    }
    // The best `max`, ties in the order documents were first matched; the arrays are cleared for the next search.
    const best: TermHit[] = [];
    for (let i = 0; i < touched; i++) {
      const doc = this._touched[i];
      const score = this._score[doc] * this._matched[doc];
      this._score[doc] = 0;
      this._matched[doc] = 0;
      this._lastTerm[doc] = -1;
      if (best.length === max) {
        if (max === 0 || score <= best[max - 1].score) continue;
        best.pop();
      }
      let at = best.length;
      while (at > 0 && best[at - 1].score < score) at--;
      best.splice(at, 0, { doc, score });
    }
    return best;
  }
}
