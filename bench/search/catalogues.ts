// The tool catalogues of the search bench (issue 19): the recorded reference servers, the
// hand-written GitLab/GitHub/Playwright-like catalogue, the labelled requests, and a deterministic
// synthetic catalogue of any size built from the shapes of those real tools.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { SearchableTool } from '../../src/core/search/toolSearch';
import { ROOT } from '../harness';

const DIR = path.join(ROOT, 'bench/search');

interface ServerList {
  readonly server: string;
  readonly tools: readonly Tool[];
}

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as { servers: ServerList[] };
const searchable = (lists: readonly ServerList[]): SearchableTool[] =>
  lists.flatMap((s) => s.tools.map((t) => ({ server: s.server, tool: t.name, title: t.title, description: t.description, definition: t })));

/** The three npm reference servers' tools (server-everything, -filesystem, -memory), as recorded. */
export function referenceTools(): SearchableTool[] {
  return searchable(read('reference-tools.json').servers);
}

/** The realistic catalogue: the reference servers and the GitLab/GitHub/Playwright-like servers. */
export function realisticTools(): SearchableTool[] {
  return [...referenceTools(), ...searchable(read('catalogue.json').servers)];
}

/**
 * The held-out catalogue: 11 real npm servers (Slack, Google Maps, Notion, Desktop Commander,
 * Kubernetes, MongoDB, AntV charts, Airtable, Todoist, Firecrawl, CircleCI) as they listed their tools
 * (`heldout-tools.json`, recorded by recordServers.ts), none of them in the catalogue the search was tuned on.
 */
export function heldOutTools(): SearchableTool[] {
  return searchable(read('heldout-tools.json').servers);
}

/** The tuning catalogue: 6 other real npm servers (Puppeteer, Brave Search, Sentry, Jira, Tavily, YouTube transcripts), `tuning-tools.json`. */
export function tuningTools(): SearchableTool[] {
  return searchable(read('tuning-tools.json').servers);
}

/** A labelled request: what a user asks, and the `server/tool`s search should find in its top 5. */
export interface LabelledRequest {
  readonly request: string;
  readonly tools: readonly string[];
}

/**
 * Labelled requests: the ones the engine was tuned on (`requests.json` over the realistic catalogue,
 * `tuning.json` over the tuning servers), or held out: `heldout.json` over the realistic catalogue,
 * `heldout-servers.json` over the held-out servers.
 */
export function labelledRequests(file: 'requests.json' | 'tuning.json' | 'heldout.json' | 'heldout-servers.json' = 'requests.json'): LabelledRequest[] {
  return (JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as { requests: LabelledRequest[] }).requests;
}

/** Business areas that tell copies of a real tool apart, as a company's many servers would. */
const AREAS = ['billing', 'inventory', 'payroll', 'crm', 'analytics', 'support', 'shipping', 'marketing', 'hr', 'legal', 'security', 'search', 'catalog', 'orders', 'identity', 'media', 'reports', 'infra', 'mobile', 'partners'];

/** A small seeded PRNG (mulberry32): the same catalogue on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` tools made from the realistic catalogue's real shapes: the real tools first, then copies
 * on servers of a business area (`gitlab-billing`), the area in their description; input schemas
 * kept as they are. Deterministic for a given count.
 */
export function syntheticTools(count: number): SearchableTool[] {
  const real = realisticTools();
  const next = random(19);
  const tools: SearchableTool[] = real.slice(0, count);
  const taken = new Set(tools.map((t) => `${t.server}/${t.tool}`));
  while (tools.length < count) {
    const base = real[Math.floor(next() * real.length)];
    const area = AREAS[Math.floor(next() * AREAS.length)];
    // Past 20 copies of a tool (10,000 tools), a copy goes to a second server of the area.
    let server = `${base.server}-${area}`;
    for (let n = 2; taken.has(`${server}/${base.tool}`); n++) server = `${base.server}-${area}-${n}`;
    taken.add(`${server}/${base.tool}`);
    const definition: Tool = { ...base.definition, description: `${base.definition.description ?? ''} (${area} workspace)` };
    tools.push({ server, tool: base.tool, title: base.title, description: definition.description, definition });
  }
  return tools;
}
