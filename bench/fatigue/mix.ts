// The approval-fatigue mix (mix.json): an agent session's calls, each labelled with whether the
// user meant to allow it, and the project folder, notes and web pages the session works on.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FATIGUE_DIR = path.resolve(__dirname, '../../../bench/fatigue');
export const MIX_FILE = path.join(FATIGUE_DIR, 'mix.json');
export const RULES_FILE = path.join(FATIGUE_DIR, 'rules.json');

export type MixServer = 'filesystem' | 'notes' | 'fetch';
const SERVERS: readonly MixServer[] = ['filesystem', 'notes', 'fetch'];

export interface MixCall {
  readonly server: MixServer;
  readonly tool: string;
  /** Strings may name `${project}` and `${outside}` (a folder next to the project). */
  readonly args: Record<string, unknown>;
  /** What the user meant to allow: the measure of overreach. */
  readonly allowed: boolean;
  readonly why?: string;
}

export interface Mix {
  readonly description: string;
  /** Files of the project (relative path -> text), symlinks in it (name -> target), files of the folder next to it. */
  readonly project: { readonly files: Record<string, string>; readonly links: Record<string, string>; readonly outside: Record<string, string> };
  /** The notes server's notes at start. */
  readonly notes: Record<string, string>;
  /** What each web host answers (every page of it). */
  readonly pages: Record<string, string>;
  readonly calls: readonly MixCall[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTextMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((t) => typeof t === 'string');

/** Reads and checks a mix; a bad one is refused with the call or field that is wrong. */
export function readMix(file: string = MIX_FILE): Mix {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const fail = (where: string, what: string): never => {
    throw new Error(`${file}: ${where} ${what}`);
  };
  if (!isRecord(raw)) return fail('the mix', 'must be a JSON object');
  if (typeof raw.description !== 'string') fail('"description"', 'must be text');
  const project = raw.project;
  if (!isRecord(project) || !isTextMap(project.files) || !isTextMap(project.links) || !isTextMap(project.outside)) fail('"project"', 'must have "files", "links" and "outside", each mapping names to text');
  if (!isTextMap(raw.notes)) fail('"notes"', 'must map note names to text');
  if (!isTextMap(raw.pages)) fail('"pages"', 'must map host names to text');
  if (!Array.isArray(raw.calls) || raw.calls.length === 0) fail('"calls"', 'must be a non-empty list');
  (raw.calls as unknown[]).forEach((c, i) => {
    if (!isRecord(c)) return fail(`calls[${i}]`, 'must be an object');
    if (!SERVERS.includes(c.server as MixServer)) fail(`calls[${i}].server`, `must be one of ${SERVERS.join(', ')}, not ${JSON.stringify(c.server)}`);
    if (typeof c.tool !== 'string' || c.tool === '') fail(`calls[${i}].tool`, 'must be a tool name');
    if (!isRecord(c.args)) fail(`calls[${i}].args`, 'must be an object');
    if (typeof c.allowed !== 'boolean') fail(`calls[${i}].allowed`, 'must be true or false (what the user meant to allow)');
  });
  return raw as unknown as Mix;
}

/**
 * A shorter replay that keeps the mix's order and both kinds of call: `n` calls, a third of them
 * (at most) from those the user did not allow; each kind is shared among the servers by their
 * part of it (at least one call each, so every server is met), picked at even spacing.
 */
export function sampleCalls(calls: readonly MixCall[], n: number): MixCall[] {
  if (n >= calls.length) return [...calls];
  const indexed = calls.map((call, index) => ({ call, index }));
  const refusedAll = indexed.filter((c) => !c.call.allowed);
  const refused = spread(refusedAll, Math.min(refusedAll.length, Math.floor(n / 3)));
  const allowed = spread(indexed.filter((c) => c.call.allowed), n - refused.length);
  return [...refused, ...allowed].sort((a, b) => a.index - b.index).map((c) => c.call);
}

/** `k` of `xs`, shared among the servers by their part of `xs` (each met at least once), evenly spaced within each. */
function spread<T extends { readonly call: MixCall }>(xs: readonly T[], k: number): T[] {
  const groups = SERVERS.map((server) => xs.filter((x) => x.call.server === server)).filter((g) => g.length > 0);
  const counts = groups.map((g) => Math.min(g.length, Math.max(1, Math.floor((k * g.length) / xs.length))));
  // What rounding left over goes to the largest groups that have calls to spare.
  for (let left = k - counts.reduce((a, b) => a + b, 0); left > 0; left--) {
    const spare = groups.map((g, i) => (counts[i] < g.length ? g.length - counts[i] : -1));
    const i = spare.indexOf(Math.max(...spare));
    if (spare[i] <= 0) break;
    counts[i]++;
  }
  return groups.flatMap((g, i) => Array.from({ length: counts[i] }, (_, j) => g[Math.floor((j * g.length) / counts[i])]));
}

/** Where one replay works: a fresh project folder, the folder next to it, and a home folder for the servers. */
export interface Workspace {
  readonly project: string;
  readonly outside: string;
  readonly home: string;
  dispose(): void;
}

export function makeWorkspace(mix: Mix): Workspace {
  // The real path: the project is named as the servers will see it.
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fatigue-')));
  const [project, outside, home] = ['project', 'outside', 'home'].map((d) => path.join(root, d));
  const fill = (folder: string, files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(folder, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  };
  fs.mkdirSync(home, { recursive: true });
  fill(project, mix.project.files);
  fill(outside, mix.project.outside);
  for (const [name, target] of Object.entries(mix.project.links)) fs.symlinkSync(fillPlaceholders(target, { project, outside }), path.join(project, name));
  return { project, outside, home, dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** A value with `${project}` and `${outside}` replaced in every string of it. */
export function fillPlaceholders<T>(value: T, places: { readonly project: string; readonly outside: string }): T {
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replaceAll('${project}', places.project).replaceAll('${outside}', places.outside);
    if (Array.isArray(v)) return v.map(fill);
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return fill(value) as T;
}
