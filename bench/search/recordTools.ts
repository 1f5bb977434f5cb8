// Regenerates bench/search/reference-tools.json: the tool lists of the three npm reference servers
// (server-everything, server-filesystem, server-memory, devDependencies), started as real processes
// through our CLI (`mcp-tool-host tools --json`). usage: npx tsc -p . && node esbuild.mjs && node out/bench/search/recordTools.js
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../harness';

/** Where the recorded lists live (the bench and the tests read them). */
export const REFERENCE_TOOLS = path.join(ROOT, 'bench/search/reference-tools.json');

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reference-tools-'));
  const pkg = (name: string) => path.join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
  const config = path.join(dir, 'reference.json');
  fs.mkdirSync(path.join(dir, 'files'));
  fs.writeFileSync(config, JSON.stringify({ mcpServers: {
    everything: { command: process.execPath, args: [pkg('server-everything')] },
    filesystem: { command: process.execPath, args: [pkg('server-filesystem'), path.join(dir, 'files')] },
    memory: { command: process.execPath, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'files', 'memory.jsonl') } },
  } }));
  const run = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'tools', '--config', config, '--json'], { encoding: 'utf8', timeout: 120_000 });
  fs.rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`the CLI failed (${run.status}): ${run.stderr}`);
  const listed = JSON.parse(run.stdout) as { server: string; state: string; serverInfo?: { name: string; version: string }; tools: { name: string; title?: string; description?: string; inputSchema: unknown }[] }[];
  const servers = listed.map((s) => {
    if (s.state !== 'running') throw new Error(`${s.server} did not start: ${s.state}`);
    return { server: s.server, serverInfo: s.serverInfo, tools: s.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema })) };
  });
  fs.writeFileSync(REFERENCE_TOOLS, `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), servers }, null, 1)}\n`);
  console.log(`${REFERENCE_TOOLS}: ${servers.map((s) => `${s.server} ${s.tools.length}`).join(', ')}`);
}

if (require.main === module) main();
