import type { Tool } from '@modelcontextprotocol/client';
import { sanitizeLine } from '../render/sanitize';
import type { ServerLog } from '../serverLog';
import { weightOf } from '../jsonWeight';
import { DEFAULT_MAX_TOOL_LIST_BYTES, DEFAULT_MAX_TOOLS, MAX_LIST_PAGES, type ListingLimits } from './listingLimits';

export { MAX_LIST_PAGES, type ListingLimits } from './listingLimits';

/** Asks the server for one page of `tools/list` (no cursor: the first) and returns the answer unchecked. */
export type PageFetcher = (cursor: string | undefined) => Promise<unknown>;

/**
 * Every page of `tools/list`, bounded in pages, tools and bytes (about the JSON length of the
 * tools): past a limit the whole listing fails with a sentence naming the setting, so a partial
 * list is never shown as the server's. Each tool is checked here, not by the SDK, so one malformed
 * tool is left out with a warning instead of failing the list. `extraCheck`
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
  let previous: readonly unknown[] = [];
  do {
    if (pages >= MAX_LIST_PAGES) throw new Error(`tools/list: exceeded listMaxPages (${MAX_LIST_PAGES}); server pagination did not terminate`);
    const page = pageOf(await fetchPage(cursor), pages + 1);
    pages++;
    // The same page again under the same cursor ends the walk (as the SDK did): nothing new comes.
    if (pages > 1 && page.nextCursor === cursor && samePage(page.tools, previous)) break;
    previous = page.tools;
    listed += page.tools.length;
    const weights = page.tools.map(weightOf);
    for (const w of weights) bytes += w ?? 0;
    if (listed > maxTools) throw new Error(`tools/list: more than ${maxTools} tools after ${pages} pages; the list was dropped (raise the setting mcpToolHost.maxToolsPerServer to accept more)`);
    if (bytes > maxBytes) throw new Error(`tools/list: the tool list passed ${mib(maxBytes)} after ${pages} pages and was dropped (raise the setting mcpToolHost.maxToolListSize to accept more)`);
    for (const [i, raw] of page.tools.entries()) {
      const checked = checkTool(raw, weights[i] !== undefined, extraCheck);
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
function checkTool(raw: unknown, readable: boolean, extraCheck?: (tool: Tool) => string | undefined): Tool | string {
  if (!hasName(raw)) return 'it has no name';
  if (!readable) return 'it is nested too deeply to read';
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

/** Two pages with the same tools, as JSON (only asked when the server sent back the cursor it was given). */
function samePage(a: readonly unknown[], b: readonly unknown[]): boolean {
  const json = (tool: unknown) => {
    try {
      return JSON.stringify(tool);
    } catch {
      return undefined; // nested past the stack: left out of either page anyway
    }
  };
  return a.length === b.length && a.every((tool, i) => json(tool) === json(b[i]));
}

const hasName = (raw: unknown): raw is Record<string, unknown> & { name: string } => isObject(raw) && typeof raw.name === 'string' && raw.name !== '';

/** A name for a warning: one line, safe to show, and short (a hostile name may be megabytes). */
function toolName(raw: { name: string }): string {
  const name = raw.name;
  return sanitizeLine(name.length > 200 ? `${name.slice(0, 200)}…` : name);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const mib = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
