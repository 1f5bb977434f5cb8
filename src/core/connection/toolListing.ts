import type { Tool } from '@modelcontextprotocol/client';
import { sanitizeLine } from '../render/sanitize';
import type { ServerLog } from '../serverLog';

/** Pages one listing may take: ends a server whose `nextCursor` never converges (the SDK's cap, and its words). */
export const MAX_LIST_PAGES = 64;

/**
 * Tools one server may list (setting `mcpToolHost.maxToolsPerServer`): twice the largest listing we
 * test (the bench lists 10,000), far past any real server, and each tool costs the tree, pins and chat.
 */
export const DEFAULT_MAX_TOOLS = 20_000;

/**
 * The weight of one server's tool list across its pages (setting `mcpToolHost.maxToolListMiB`): each
 * page is under the per-message cap, but 64 such pages took the CLI to 4.8 GB and an out-of-memory
 * abort (issue 13). The default is one message's worth.
 */
export const DEFAULT_MAX_TOOL_LIST_BYTES = 64 * 1024 * 1024;

/** How much a listing may hold; undefined takes the default. */
export interface ListingLimits {
  readonly maxTools?: number;
  readonly maxBytes?: number;
}

/** Asks the server for one page of `tools/list` (no cursor: the first) and returns the answer unchecked. */
export type PageFetcher = (cursor: string | undefined) => Promise<unknown>;

/**
 * Every page of `tools/list`, bounded in pages, tools and bytes (the JSON length of the tools, an
 * estimate): past a limit the whole listing fails with a sentence naming the setting, so a partial
 * list is never shown as the server's. Each tool is checked here, not by the SDK, so one malformed
 * tool is left out with a warning instead of failing the list (issue 13, "Tolerance"). `extraCheck`
 * adds a rule of the session's own (why a tool is invalid there, or undefined).
 */
export async function listAllTools(fetchPage: PageFetcher, limits: ListingLimits, log: ServerLog, extraCheck?: (tool: Tool) => string | undefined): Promise<Tool[]> {
  const maxTools = limits.maxTools ?? DEFAULT_MAX_TOOLS;
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_TOOL_LIST_BYTES;
  const tools: Tool[] = [];
  let listed = 0;
  let bytes = 0;
  let pages = 0;
  let cursor: string | undefined;
  let previous: (string | undefined)[] = [];
  do {
    if (pages >= MAX_LIST_PAGES) throw new Error(`tools/list: exceeded listMaxPages (${MAX_LIST_PAGES}); server pagination did not terminate`);
    const page = pageOf(await fetchPage(cursor), pages + 1);
    pages++;
    const json = page.tools.map(jsonOf);
    // The same page again under the same cursor ends the walk (as the SDK did): nothing new comes.
    if (pages > 1 && page.nextCursor === cursor && sameItems(json, previous)) break;
    previous = json;
    listed += page.tools.length;
    for (const j of json) bytes += j?.length ?? 0;
    if (listed > maxTools) throw new Error(`tools/list: more than ${maxTools} tools after ${pages} pages; the list was dropped (raise the setting mcpToolHost.maxToolsPerServer to accept more)`);
    if (bytes > maxBytes) throw new Error(`tools/list: the tool list passed ${mib(maxBytes)} after ${pages} pages and was dropped (raise the setting mcpToolHost.maxToolListMiB to accept more)`);
    for (const [i, raw] of page.tools.entries()) {
      const checked = checkTool(raw, json[i], extraCheck);
      if (typeof checked === 'string') log.warn(`${hasName(raw) ? `Tool "${toolName(raw)}"` : `Tool ${i + 1} of page ${pages}`} was left out: ${checked}.`);
      else tools.push(checked);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

interface Page {
  readonly tools: unknown[];
  readonly nextCursor?: string;
}

function pageOf(answer: unknown, n: number): Page {
  if (!isObject(answer) || !Array.isArray(answer.tools)) throw new Error(`tools/list: page ${n} has no "tools" list`);
  return { tools: answer.tools, nextCursor: typeof answer.nextCursor === 'string' ? answer.nextCursor : undefined };
}

/** The tool as we use it, or why it is left out (what the SDK's strict parse would reject the whole list for). */
function checkTool(raw: unknown, json: string | undefined, extraCheck?: (tool: Tool) => string | undefined): Tool | string {
  if (!hasName(raw)) return 'it has no name';
  if (json === undefined) return 'it is nested too deeply to read';
  const schema = raw.inputSchema;
  if (schema === undefined || schema === null) return 'it has no inputSchema';
  if (!isObject(schema) || schema.type !== 'object') return 'its inputSchema is not an object schema (type "object")';
  if (raw.outputSchema !== undefined && !isObject(raw.outputSchema)) return 'its outputSchema is not an object';
  for (const key of ['title', 'description'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return `its ${key} is not text`;
  }
  if (raw.annotations !== undefined && !isObject(raw.annotations)) return 'its annotations are not an object';
  const tool = raw as unknown as Tool;
  return extraCheck?.(tool) ?? tool;
}

/** JSON of one listed tool, or undefined when it cannot be printed (nested past the stack). */
function jsonOf(tool: unknown): string | undefined {
  try {
    return JSON.stringify(tool) ?? '';
  } catch {
    return undefined;
  }
}

function sameItems(a: readonly (string | undefined)[], b: readonly (string | undefined)[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const hasName = (raw: unknown): raw is Record<string, unknown> & { name: string } => isObject(raw) && typeof raw.name === 'string' && raw.name !== '';

/** A name for a warning: one line, safe to show, and short (a hostile name may be megabytes). */
function toolName(raw: { name: string }): string {
  const name = raw.name;
  return sanitizeLine(name.length > 200 ? `${name.slice(0, 200)}…` : name);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const mib = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
