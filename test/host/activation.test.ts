// Issue 7, cases 6 and 7, inside the real extension host: how long activation takes and how much
// JavaScript it loads (the SDK and ajv must wait for the first server), and how long the Tools
// view's provider takes for many servers. Numbers go to a JSON file that `npm run bench` reads;
// nothing here asserts a time. Runs first (file order), before anything else activates us.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { sleep } from './wait';

const EXTENSION_ID = 'mcp-tool-host.mcp-tool-host';
const MANY_TOOLS = path.resolve(__dirname, '../../../test/fixtures/servers/many-tools.cjs');
/** The bench asks for 50 x 200; the test suite runs a small tree. */
const SERVERS = Number(process.env.BENCH_TREE_SERVERS ?? 3);
const TOOLS = Number(process.env.BENCH_TREE_TOOLS ?? 10);
const OUT = process.env.HOST_BENCH_OUT ?? (process.env.HOST_TEST_RESULTS && path.join(path.dirname(process.env.HOST_TEST_RESULTS), 'host-bench.json'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const setServers = (value: unknown) => vscode.workspace.getConfiguration('mcpToolHost').update('servers', value, vscode.ConfigurationTarget.Global);

describe('activation and the tree, measured for the bench (issue 7)', () => {
  const measured: Record<string, unknown> = { servers: SERVERS, toolsPerServer: TOOLS };
  let ext: vscode.Extension<McpToolHostApi>;
  let core: string;
  let search: string;

  before(() => {
    ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!;
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    core = path.join(ext.extensionPath, 'dist', 'core.js');
    search = path.join(ext.extensionPath, 'dist', 'search.js');
  });

  after(async () => {
    if (OUT) fs.writeFileSync(OUT, JSON.stringify(measured, null, 2));
    await setServers(undefined);
  });

  it('activates without loading dist/core.js (the SDK and ajv)', async function () {
    if (ext.isActive) {
      measured.note = 'the extension was already active; activation was not measured';
      this.skip();
    }
    await setServers(undefined);
    await sleep(1500); // let the workbench finish loading: the numbers are ours, not its start-up
    const loadedBefore = new Set(Object.keys(require.cache));
    // Load the bundle first, then activate: the two costs apart (VS Code reuses the loaded module).
    let started = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(ext.extensionPath, 'dist', 'extension.js'));
    measured.loadMs = performance.now() - started;
    started = performance.now();
    const api = await ext.activate();
    measured.extActivateMs = performance.now() - started; // VS Code's share too: storage, context, IPC
    measured.activateMs = api.activationMs; // activate() itself, timed by the extension
    const ours = Object.keys(require.cache).filter((f) => !loadedBefore.has(f) && f.startsWith(ext.extensionPath + path.sep));
    measured.modulesAtActivation = ours.map((f) => path.relative(ext.extensionPath, f));
    measured.bytesAtActivation = ours.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    measured.coreBytes = fs.existsSync(core) ? fs.statSync(core).size : null;
    // What activate() had loaded when it returned: by the time this test looks, a loaded host may have run the timers after it.
    const loaded = api.distAtActivation;
    assert.ok(loaded.includes('extension.js'), `the extension's own bundle is listed: ${loaded.join(', ')}`);
    assert.ok(!loaded.includes(path.basename(core)), `dist/core.js is not loaded at activation: ${loaded.join(', ')}`);
    assert.ok(!loaded.includes(path.basename(search)), `dist/search.js (minisearch, the tokenizer) is not loaded at activation: ${loaded.join(', ')}`);
    assert.ok(!loaded.includes('calls.js'), `dist/calls.js (what runs a call) is not loaded at activation: ${loaded.join(', ')}`);
  });

  it(`loads dist/core.js when servers start: ${SERVERS} servers with ${TOOLS} tools each`, async function () {
    if (SERVERS === 0) this.skip(); // an activation-only round of the bench
    const api = await ext.activate();
    const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`bench${i}`, { command: process.execPath, args: [MANY_TOOLS], env: { TOOLS: String(TOOLS), ELECTRON_RUN_AS_NODE: '1' } }]));
    const started = performance.now();
    await setServers(servers);
    const ready = () => api.pool.connections.filter((c) => c.name.startsWith('bench') && c.state.kind === 'running' && c.tools.length === TOOLS).length;
    for (const end = Date.now() + 180_000; ready() < SERVERS && Date.now() < end; ) await sleep(100);
    measured.allRunningMs = performance.now() - started;
    assert.equal(ready(), SERVERS, 'every server is running with its tools');
    assert.ok(require.cache[core], 'dist/core.js is loaded once a server runs');
  });

  it('computes the Tools view: every server row and tool row', async function () {
    if (SERVERS === 0) this.skip();
    const api = await ext.activate();
    const times: number[] = [];
    let rows = 0;
    for (let round = 0; round < 7; round++) {
      rows = 0;
      const started = performance.now();
      for (const server of (await api.tree.getChildren()) ?? []) {
        api.tree.getTreeItem(server);
        for (const child of (await api.tree.getChildren(server)) ?? []) {
          api.tree.getTreeItem(child);
          if (child.kind === 'tool') rows++;
        }
      }
      times.push(performance.now() - started);
    }
    measured.tree = { toolRows: rows, firstMs: times[0], medianMs: median(times), rounds: times };
    assert.equal(rows, SERVERS * TOOLS);
    assert.equal(require.cache[search], undefined, 'the rows need no tokenizer: a server tooltip counts tokens on hover');
  });
});
