// Regenerates bench/search/heldout-tools.json (the held-out catalogue: real npm MCP servers the search
// was never tuned on) or tuning-tools.json (other real servers, for tuning): each server started as a
// real process and listed through the SDK client, its definitions kept as the server gave them, with
// the package and version that gave them.
// usage: install the packages of a set below into a scratch folder outside the repository (npm install
// --ignore-scripts ...), then: npx tsc -p . && node out/bench/search/recordServers.js heldout|tuning <that folder>
// The servers start without accounts: a placeholder key is enough to list tools, and no tool is called.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../harness';


interface Candidate {
  readonly server: string;
  readonly npm: string;
  /** The package's entry point, relative to its folder. */
  readonly main: string;
  readonly args?: readonly string[];
  readonly env?: Record<string, string>;
}

/** Servers from npm, none of them the reference servers or the GitLab/GitHub/Playwright shapes of catalogue.json. */
const HELDOUT: readonly Candidate[] = [
  { server: 'slack', npm: '@modelcontextprotocol/server-slack', main: 'dist/index.js', env: { SLACK_BOT_TOKEN: 'xoxb-0', SLACK_TEAM_ID: 'T0' } },
  { server: 'google-maps', npm: '@modelcontextprotocol/server-google-maps', main: 'dist/index.js', env: { GOOGLE_MAPS_API_KEY: '0' } },
  { server: 'notion', npm: '@notionhq/notion-mcp-server', main: 'bin/cli.mjs', env: { NOTION_TOKEN: 'ntn_0' } },
  { server: 'desktop-commander', npm: '@wonderwhy-er/desktop-commander', main: 'dist/index.js' },
  { server: 'kubernetes', npm: 'mcp-server-kubernetes', main: 'dist/index.js' },
  { server: 'mongodb', npm: 'mongodb-mcp-server', main: 'dist/esm/index.js', env: { MDB_MCP_TELEMETRY: 'disabled' } },
  { server: 'chart', npm: '@antv/mcp-server-chart', main: 'build/index.js' },
  { server: 'airtable', npm: 'airtable-mcp-server', main: 'dist/main.js', env: { AIRTABLE_API_KEY: 'pat0' } },
  { server: 'todoist', npm: 'todoist-mcp', main: 'dist/index.js', env: { API_KEY: '0' } },
  { server: 'firecrawl', npm: 'firecrawl-mcp', main: 'dist/index.js', env: { FIRECRAWL_API_KEY: 'fc-0' } },
  { server: 'circleci', npm: '@circleci/mcp-server-circleci', main: 'dist/index.js', env: { CIRCLECI_TOKEN: '0' } },
];

/** Other servers again, none of them held out: what the search may be tuned on. */
const TUNING: readonly Candidate[] = [
  { server: 'puppeteer', npm: '@modelcontextprotocol/server-puppeteer', main: 'dist/index.js' },
  { server: 'brave-search', npm: '@brave/brave-search-mcp-server', main: 'dist/index.js', env: { BRAVE_API_KEY: '0' } },
  { server: 'sentry', npm: '@sentry/mcp-server', main: 'dist/index.js', args: ['--access-token=0'] },
  { server: 'jira', npm: '@aashari/mcp-server-atlassian-jira', main: 'dist/index.js', env: { ATLASSIAN_SITE_NAME: 'x', ATLASSIAN_USER_EMAIL: 'a@example.com', ATLASSIAN_API_TOKEN: '0' } },
  { server: 'tavily', npm: 'tavily-mcp', main: 'build/index.js', env: { TAVILY_API_KEY: '0' } },
  { server: 'youtube', npm: '@kimtaeyoon83/mcp-server-youtube-transcript', main: 'dist/index.js' },
];

/** Each set: its servers and the file its lists are written to (the bench and the tests read them). */
const SETS = {
  heldout: { candidates: HELDOUT, file: path.join(ROOT, 'bench/search/heldout-tools.json') },
  tuning: { candidates: TUNING, file: path.join(ROOT, 'bench/search/tuning-tools.json') },
} as const;

async function list(folder: string, c: Candidate, home: string) {
  const dir = path.join(folder, 'node_modules', c.npm);
  const version = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const env = { PATH: process.env.PATH ?? '', HOME: home, ...c.env };
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(dir, c.main), ...(c.args ?? [])], env, cwd: home, stderr: 'ignore' });
  const client = new Client({ name: 'record-heldout', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { server: c.server, npm: c.npm, version, serverInfo: client.getServerVersion(), tools };
  } finally {
    await client.close();
  }
}

/** The lists as JSON, one tool a line: a diff shows which definitions a new recording changed. */
function fixture(servers: readonly (Record<string, unknown> & { tools: readonly unknown[] })[]): string {
  const server = ({ tools, ...about }: (typeof servers)[number]) => `  ${JSON.stringify(about).slice(0, -1)},\n   "tools": [\n${tools.map((t) => `    ${JSON.stringify(t)}`).join(',\n')}\n  ]}`;
  return `{"recorded": ${JSON.stringify(new Date().toISOString().slice(0, 10))},\n "servers": [\n${servers.map(server).join(',\n')}\n ]}\n`;
}

async function main(): Promise<void> {
  const [name, folder] = process.argv.slice(2);
  const set = name === 'heldout' || name === 'tuning' ? SETS[name] : undefined;
  if (!set || !folder || !fs.existsSync(path.join(folder, 'node_modules'))) throw new Error('usage: node out/bench/search/recordServers.js heldout|tuning <folder where the packages are installed>');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'heldout-home-'));
  try {
    const servers = [];
    for (const c of set.candidates) servers.push(await list(path.resolve(folder), c, home));
    fs.writeFileSync(set.file, fixture(servers));
    console.log(`${set.file}: ${servers.map((s) => `${s.server} (${s.npm}@${s.version}) ${s.tools.length}`).join(', ')}`);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
