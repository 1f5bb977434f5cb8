/**
 * The demo MCP server that ships with MCP Tool Host (`dist/demo-server.js`). Its tools show
 * every badge the host draws: read-only, destructive, idempotent, open-world, and one with no
 * annotations at all; a slow tool that reports progress, one that returns an image, and one
 * with an output schema. Notes live in memory for the life of the process.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { barChart } from './png';
import { APP_MIME_TYPE, BAR_CHART_APP_HTML, BAR_CHART_APP_URI } from './barChartApp';

const VERSION = '0.1.0';
const notes = new Map<string, string>([
  ['welcome', 'Notes live in the demo server until it stops.'],
  ['shopping', 'milk, bread, coffee'],
]);

const server = new McpServer(
  { name: 'mcp-tool-host-demo', title: 'MCP Tool Host Demo', version: VERSION },
  { instructions: 'A demo server: notes in memory, a slow counter, a chart image, text statistics and an HTTP fetch.' },
);

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

server.registerTool(
  'list_notes',
  {
    title: 'List Notes',
    description: 'Lists the names of all notes.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async () => text(notes.size ? [...notes.keys()].join('\n') : '(no notes)'),
);

server.registerTool(
  'read_note',
  {
    title: 'Read Note',
    description: 'Reads one note by name.',
    inputSchema: z.object({ name: z.string().min(1).describe('The note to read') }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ name }) => {
    const body = notes.get(name);
    return body === undefined ? { ...text(`No note named "${name}".`), isError: true } : text(body);
  },
);

server.registerTool(
  'add_note',
  {
    title: 'Add Note',
    description: 'Adds a note, or appends to it when it exists. Never removes anything.',
    inputSchema: z.object({ name: z.string().min(1), text: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  async ({ name, text: body }) => {
    notes.set(name, notes.has(name) ? `${notes.get(name)}\n${body}` : body);
    return text(`Note "${name}" now has ${notes.get(name)!.length} characters.`);
  },
);

server.registerTool(
  'delete_note',
  {
    title: 'Delete Note',
    description: 'Deletes a note for good. Deleting a missing note does nothing.',
    inputSchema: z.object({ name: z.string().min(1) }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ name }) => text(notes.delete(name) ? `Deleted "${name}".` : `There was no note "${name}".`),
);

server.registerTool(
  'fetch_url',
  {
    title: 'Fetch URL',
    description: 'Fetches an http(s) URL and returns the start of its body.',
    inputSchema: z.object({ url: z.string().url(), maxChars: z.number().int().min(1).max(100000).default(2000) }),
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async ({ url, maxChars }) => {
    if (!/^https?:\/\//i.test(url)) return { ...text('Only http and https URLs can be fetched.'), isError: true };
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(15000) });
      const body = await response.text();
      return text(`HTTP ${response.status} ${response.headers.get('content-type') ?? ''}\n${body.slice(0, maxChars)}`);
    } catch (err) {
      return { ...text(`Fetching ${url} failed: ${err instanceof Error ? err.message : String(err)}`), isError: true };
    }
  },
);

server.registerTool(
  'echo',
  {
    description: 'Returns the message it is given. It declares no annotations, so the spec defaults apply.',
    inputSchema: z.object({ message: z.string() }),
  },
  async ({ message }) => text(message),
);

server.registerTool(
  'slow_count',
  {
    title: 'Slow Count',
    description: 'Counts to `steps`, waiting `delayMs` between steps and reporting progress.',
    inputSchema: z.object({ steps: z.number().int().min(1).max(100).default(5), delayMs: z.number().int().min(0).max(10000).default(500) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ steps, delayMs }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (ctx.mcpReq.signal.aborted) return text(`Stopped at ${i} of ${steps}.`);
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i} of ${steps}` } });
      }
    }
    return text(`Counted to ${steps}.`);
  },
);

server.registerTool(
  'bar_chart',
  {
    title: 'Bar Chart',
    description: 'Draws the numbers as a bar chart and returns it as a PNG image.',
    inputSchema: z.object({ values: z.array(z.number().min(0)).min(1).max(24) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // Its interface (MCP Apps): hosts that render them draw the bars themselves, fed the values.
    _meta: { ui: { resourceUri: BAR_CHART_APP_URI } },
  },
  async ({ values }) => ({
    content: [
      { type: 'text' as const, text: `A chart of ${values.length} values.` },
      { type: 'image' as const, data: barChart(values).toString('base64'), mimeType: 'image/png' },
    ],
  }),
);

server.registerResource('bar_chart_app', BAR_CHART_APP_URI, { title: 'Bar Chart (interface)', mimeType: APP_MIME_TYPE }, async () => ({
  contents: [{ uri: BAR_CHART_APP_URI, mimeType: APP_MIME_TYPE, text: BAR_CHART_APP_HTML }],
}));

const StatsSchema = z.object({ characters: z.number(), words: z.number(), lines: z.number(), longestWord: z.string() });
server.registerTool(
  'text_stats',
  {
    title: 'Text Statistics',
    description: 'Counts the characters, words and lines of a text; the result is structured.',
    inputSchema: z.object({ text: z.string() }),
    outputSchema: StatsSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ text: input }) => {
    const words = input.split(/\s+/).filter(Boolean);
    const stats = {
      characters: input.length,
      words: words.length,
      lines: input === '' ? 0 : input.split('\n').length,
      longestWord: words.reduce((a, b) => (b.length > a.length ? b : a), ''),
    };
    return { content: [{ type: 'text' as const, text: JSON.stringify(stats) }], structuredContent: stats };
  },
);

server.connect(new StdioServerTransport()).catch((err: unknown) => {
  console.error("demo server failed to start:", err);
  process.exit(1);
});
