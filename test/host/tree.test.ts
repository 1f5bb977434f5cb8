// The Tools view's tree provider in the real extension host, in every server state, with real
// servers (the demo server and fixtures as child processes).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { GrantStore, memoryPersistence } from '../../src/core/policy/grants';
import { pinTool } from '../../src/core/policy/toolPin';
import { demoEntry, FIXTURES, iconOf, makePool, plain, ROOT, type Harness } from './treeHarness';
import { until } from './wait';

const cachedTools: Tool[] = [
  { name: 'read_thing', title: 'Read Thing', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: 'zap', inputSchema: { type: 'object' } },
];

describe('Tools view: the tree in every server state', () => {
  let h: Harness;
  /** A harness whose demo server is running with its tools listed. */
  const runningDemo = async (options: Parameters<typeof makePool>[0] = {}) => {
    h = makePool(options); // set at once, so afterEach disposes it even if the start fails
    h.apply({ demo: demoEntry });
    await h.pool.get('demo')!.start();
    await until('tools listed', () => h.pool.get('demo')!.tools.length > 0);
    return h;
  };
  afterEach(async () => h?.close());
  /** A server row's tooltip as a hover shows it: every tooltip comes in resolveTreeItem (built in dist/forms.js, not at activation). */
  const serverTip = (name: string) => {
    const { node, item } = h.server(name);
    return plain(h.tree.resolveTreeItem(item, node).tooltip);
  };

  it('stopped: an empty circle, "stopped", and a Start row', () => {
    h = makePool();
    h.apply({ idle: { command: 'node', args: ['x.js'] } });
    const { node, item } = h.server('idle');
    assert.equal(item.label, 'idle');
    assert.equal(iconOf(item), 'circle-large-outline');
    assert.equal(item.description, 'stopped');
    assert.equal(item.contextValue, 'mcpServer;stopped;');
    assert.equal(item.tooltip, undefined, 'tooltips wait for a hover');
    assert.match(serverTip('idle'), /Configured launch[\s\S]*node x\.js/);
    const [start] = h.rows(node);
    assert.equal(start.item.label, 'Start');
    assert.deepEqual(start.item.command?.arguments, ['idle']);
    assert.equal(start.item.command?.command, 'mcpToolHost.startServer');
  });

  it('cached: a history icon, the cached count, and the last-known tools', () => {
    h = makePool({ cache: { old: cachedTools } });
    h.apply({ old: { command: 'node', args: ['x.js'] } });
    const { node, item } = h.server('old');
    assert.equal(iconOf(item), 'history descriptionForeground');
    assert.equal(item.description, 'stopped · 2 cached tools');
    assert.equal(item.tooltip, undefined, 'a server with tools gets its tooltip on hover (its token count loads the tokenizer)');
    const tip = plain(h.tree.resolveTreeItem(item, node).tooltip);
    assert.match(tip, /Tools: 2 \(cached from the last run\) · ~\d+ tokens \(o200k_base, the GPT-4o tokenizer\)/);
    assert.deepEqual(h.rows(node).map((r) => r.item.label), ['Read Thing', 'zap']);
  });

  it('starting: a spinner, with cached tools when there are some', () => {
    h = makePool({ hang: new Set(['slow', 'slowcached']), cache: { slowcached: cachedTools } });
    h.apply({ slow: { command: 'node' }, slowcached: { command: 'node' } });
    void h.pool.get('slow')!.start();
    void h.pool.get('slowcached')!.start();
    assert.equal(iconOf(h.server('slow').item), 'loading~spin');
    assert.equal(h.server('slow').item.description, 'starting…');
    assert.deepEqual(h.rows(h.server('slow').node), []);
    assert.equal(h.server('slowcached').item.description, 'starting… · 2 cached tools');
    assert.equal(h.server('slowcached').item.contextValue, 'mcpServer;starting;');
  });

  it('disabled: a slashed circle, and a row that says why with Open Configuration', () => {
    h = makePool();
    h.apply({ off: { command: 'node', disabled: true } });
    const { node, item } = h.server('off');
    assert.equal(iconOf(item), 'circle-slash disabledForeground');
    assert.equal(item.description, 'disabled');
    assert.equal(item.contextValue, 'mcpServer;disabled;');
    assert.deepEqual(h.rows(node).map((r) => r.item.label), ['Disabled in its configuration ("disabled": true).', 'Open Configuration']);
  });

  it('running: a green check, tool count and version, and a tooltip with protocol, capabilities, instructions and launch line', async () => {
    h = await runningDemo();
    const { item, node } = h.server('demo');
    assert.equal(iconOf(item), 'pass-filled testing.iconPassed');
    assert.equal(item.description, '9 tools · v0.1.0');
    assert.equal(item.contextValue, 'mcpServer;running;');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const tooltip = h.tree.resolveTreeItem(item, node).tooltip;
    const tip = plain(tooltip);
    assert.equal((tooltip as vscode.MarkdownString).isTrusted, false);
    for (const part of [/Tools: 9 · ~[\d,]+ tokens \(o200k_base, the GPT-4o tokenizer\)/, /\*\*demo\*\* — running/, /Server: mcp-tool-host-demo 0\.1\.0/, /Protocol: 20\d\d-\d\d-\d\d/, /Capabilities: .*tools/, /Defined in: user settings · hints trusted/, /A demo server: notes in memory/, /Launch[\s\S]*demo-server\.js/]) {
      assert.match(tip, part);
    }
  });

  it('running: each tool with display name, badges, risk icon, context flags and a click that calls it', async () => {
    h = await runningDemo();
    const tools = new Map(h.rows(h.server('demo').node).map((r) => [r.item.label, r]));
    const expect: [string, string, string, string][] = [
      ['List Notes', 'read-only', 'eye charts.green', 'mcpTool;readonly;'],
      ['Add Note', 'writes', 'edit charts.blue', 'mcpTool;writes;'],
      ['Delete Note', 'destructive', 'trash charts.red', 'mcpTool;destructive;idempotent;'],
      ['Fetch URL', 'read-only · open-world', 'globe charts.orange', 'mcpTool;readonly;openworld;'],
      ['echo', 'destructive? · open-world?', 'trash charts.red', 'mcpTool;destructive;openworld;'],
      ['Read Note', 'read-only', 'eye charts.green', 'mcpTool;readonly;idempotent;'],
    ];
    for (const [label, description, icon, context] of expect) {
      const row = tools.get(label);
      assert.ok(row, `row ${label}`);
      assert.equal(row.item.description, description, `${label} description`);
      assert.equal(iconOf(row.item), icon, `${label} icon`);
      assert.equal(row.item.contextValue, context, `${label} context`);
      assert.equal(row.item.tooltip, undefined, 'tooltips wait for a hover');
    }
    const read = tools.get('Read Note')!;
    assert.deepEqual(read.item.command, { command: 'mcpToolHost.callTool', title: 'Call Tool', arguments: [{ server: 'demo', tool: 'read_note' }] });
    assert.equal(read.item.id, 'tool:demo/read_note');
  });

  it('a tool tooltip has the description, arguments, what it may do, and each hint with its source', async () => {
    h = await runningDemo();
    const tools = new Map(h.rows(h.server('demo').node).map((r) => [r.item.label, r]));
    const tip = (label: string) => {
      const row = tools.get(label)!;
      const md = h.tree.resolveTreeItem(row.item, row.node).tooltip as vscode.MarkdownString;
      assert.equal(md.isTrusted, false);
      assert.equal(md.supportHtml, false);
      return plain(md);
    };
    const read = tip('Read Note');
    assert.match(read, /\*\*Read Note\*\* — demo \/ read_note/);
    assert.match(read, /Reads one note by name\./);
    assert.match(read, /- name\* \(string, at least 1 character\): The note to read/);
    assert.match(tip('Bar Chart'), /- values\* \(number\[\], 1-24 items\)/);
    assert.match(read, /Runs without asking for approval\./);
    assert.match(read, /- read-only: yes \(declared\)/);
    const fetchUrl = tip('Fetch URL');
    assert.match(fetchUrl, /- url\* \(string, format uri\)/);
    assert.match(fetchUrl, /- maxChars \(integer, 1-100000, default 2000\)/);
    assert.match(fetchUrl, /Asks before each call: it may reach the outside world \(open-world\)\./);
    const echo = tip('echo');
    assert.match(echo, /- destructive\?: May change or delete data\./);
    assert.match(echo, /- destructive: yes \(spec default\)/);
    assert.match(echo, /- open-world: yes \(spec default\)/);
    assert.match(echo, /"\?" marks what the server did not declare/);
    assert.match(echo, /^\*\*echo\*\* — on demo/);
    assert.match(tip('List Notes'), /Arguments\*\*: none/);
  });

  it('a tool tooltip says when a grant covers the tool, and when the definition changed since', async () => {
    const grants = new GrantStore(memoryPersistence());
    h = await runningDemo({ grants });
    const tip = (label: string) => {
      const row = h.rows(h.server('demo').node).find((r) => r.item.label === label)!;
      return plain(h.tree.resolveTreeItem(row.item, row.node).tooltip);
    };
    const fetchUrl = h.pool.findTool('demo', 'fetch_url')!.tool;
    grants.add('tool-always', 'demo', h.pool.launchOf('demo'), 'fetch_url', pinTool(fetchUrl));
    assert.match(tip('Fetch URL'), /Runs without asking: you always allow this tool/);
    const deleteNote = h.pool.findTool('demo', 'delete_note')!.tool;
    grants.add('tool-session', 'demo', h.pool.launchOf('demo'), 'delete_note', pinTool({ ...deleteNote, description: 'Harmless, promise.' }));
    assert.match(tip('Delete Note'), /\*\*Definition changed\*\* since you approved it \(description\): the approval is suspended\. Asks before each call/);
  });

  it('with "approve every call" on, a read-only tool\'s tooltip says it asks, as the pipeline does', async () => {
    h = await runningDemo({ approveAll: true });
    const row = h.rows(h.server('demo').node).find((r) => r.item.label === 'Read Note')!;
    const tip = plain(h.tree.resolveTreeItem(row.item, row.node).tooltip);
    assert.match(tip, /Asks before each call: every call needs approval \(setting mcpToolHost\.approveAllCalls\)\./);
    assert.doesNotMatch(tip, /Runs without asking/);
  });

  it('a workspace-defined server: every tool assumed destructive and open-world, and it says hints are not trusted; a tool declared read-only says so, not trusted, without a trash can', async () => {
    h = makePool();
    h.apply({ wsdemo: demoEntry }, 'workspace');
    await h.pool.get('wsdemo')!.start();
    await until('tools listed', () => h.pool.get('wsdemo')!.tools.length > 0);
    assert.match(serverTip('wsdemo'), /Defined in: this workspace · hints not trusted/);
    assert.equal(h.server('wsdemo').item.description, '9 tools · v0.1.0 · hints not trusted');
    const row = h.rows(h.server('wsdemo').node).find((r) => r.item.label === 'List Notes')!;
    assert.equal(row.item.description, 'declared read-only, not trusted');
    assert.equal(iconOf(row.item), 'unverified charts.yellow');
    assert.equal(row.item.contextValue, 'mcpTool;destructive;openworld;', 'still approved as the worst case');
    const undeclared = h.rows(h.server('wsdemo').node).find((r) => r.item.label === 'Delete Note')!;
    assert.equal(iconOf(undeclared.item), 'trash charts.red', 'a tool that declares destruction keeps the trash can');
    const tip = plain(h.tree.resolveTreeItem(row.item, row.node).tooltip);
    assert.match(tip, /- read-only: no \(assumed: annotations not trusted; the server says yes\)/);
    assert.match(tip, /- idempotent: no \(assumed: annotations not trusted\)/);
    assert.match(tip, /its hints are not trusted[\s\S]*`mcpToolHost\.trustedWorkspaceServers` in your user settings/);
  });

  it('error: a red icon, and under it the reason, Show Log, Restart and Run Doctor', async () => {
    h = makePool();
    h.apply({ missing: { command: 'definitely-not-installed-mcp' } });
    await h.pool.get('missing')!.start();
    const { node, item } = h.server('missing');
    assert.equal(iconOf(item), 'error testing.iconFailed');
    assert.equal(item.description, 'error');
    assert.equal(item.contextValue, 'mcpServer;error;');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.match(serverTip('missing'), /\*\*Error\*\*\s+Command "definitely-not-installed-mcp" was not found/);
    const children = h.rows(node);
    assert.deepEqual(children.map((r) => r.item.label).slice(1), ['Show Log', 'Restart', 'Run Doctor']);
    const [reason] = children;
    assert.match(String(reason.item.label), /^Command "definitely-not-installed-mcp" was not found\./);
    assert.equal(reason.item.contextValue, 'mcpMessage;error;');
    assert.equal(iconOf(reason.item), 'warning problemsWarningIcon.foreground');
    assert.deepEqual(children.map((r) => r.item.command?.command), ['mcpToolHost.showServerLog', 'mcpToolHost.showServerLog', 'mcpToolHost.restartServer', 'mcpToolHost.runDoctor']);
  });

  it('error after a crash: "crashed · restarting in N s", and the last error stays in the tooltip after recovery', async () => {
    const counter = path.join(ROOT, 'out', `crash-count-${process.pid}.txt`);
    h = makePool({ restartDelayMs: 1500 });
    h.apply({ crashy: { command: process.execPath, args: [path.join(FIXTURES, 'crash-soon.cjs')], env: { ELECTRON_RUN_AS_NODE: '1', START_COUNT_FILE: counter } } });
    await h.pool.get('crashy')!.start();
    await until('crashed', () => h.pool.get('crashy')!.state.kind === 'error');
    assert.equal(h.server('crashy').item.description, 'crashed · restarting in 2 s');
    assert.match(serverTip('crashy'), /Restarting automatically in 2 s/);
    await until('running again', () => h.pool.get('crashy')!.state.kind === 'running');
    assert.match(serverTip('crashy'), /\*\*Last error\*\* \(.+\)\s+The server exited with code 9\./);
    await h.pool.get('crashy')!.stop();
  });

  it('a broken configuration entry: a warning row that opens where it is defined', () => {
    h = makePool();
    h.apply({ broken: { args: ['x'] } });
    const row = h.rows().find((r) => r.node.kind === 'configError')!;
    assert.equal(row.item.label, 'broken');
    assert.equal(row.item.description, 'configuration error');
    assert.equal(iconOf(row.item), 'warning problemsWarningIcon.foreground');
    assert.equal(row.item.tooltip, 'Server "broken": "command" is required for a stdio server (for example "npx").');
    assert.equal(row.item.command?.command, 'mcpToolHost.openServerConfiguration');
    assert.equal(row.item.contextValue, 'mcpConfigError;');
  });

  it('a running server without tools says so', async () => {
    h = makePool();
    h.apply({ notools: { command: process.execPath, args: [path.join(FIXTURES, 'no-tools-capability.cjs')], env: { ELECTRON_RUN_AS_NODE: '1' } } });
    await h.pool.get('notools')!.start();
    assert.match(String(h.server('notools').item.description), /^0 tools · v/);
    assert.deepEqual(h.rows(h.server('notools').node).map((r) => r.item.label), ['This server offers no tools.']);
  });

  it('a running server whose listing failed shows why, not "offers no tools"', async () => {
    h = makePool();
    h.apply({ endless: { command: process.execPath, args: [path.join(FIXTURES, 'endless-pages.cjs')], env: { ELECTRON_RUN_AS_NODE: '1' } } });
    await h.pool.get('endless')!.start();
    const children = h.rows(h.server('endless').node);
    assert.deepEqual(children.map((r) => r.item.label), ['Listing tools failed: tools/list: exceeded listMaxPages (64); server pagination did not terminate', 'Show Log', 'Run Doctor']);
    assert.equal(children[0].item.contextValue, 'mcpMessage;error;');
  });

  it('shows server text safely: no escapes or bidi characters in labels, no links or HTML in tooltips, unique ids for repeated names', () => {
    const evil: Tool[] = [
      { name: 'x', title: '\u001b[31mRed\u001b[0m \u202eevil', description: 'Click [here](command:workbench.action.quit) <img src=x> **bold**', inputSchema: { type: 'object' } },
      { name: 'x', inputSchema: { type: 'object' } },
    ];
    h = makePool({ cache: { evil } });
    h.apply({ evil: { command: 'node' } });
    const rows = h.rows(h.server('evil').node);
    assert.equal(rows[0].item.label, 'Red evil');
    assert.deepEqual(rows.map((r) => r.item.id), ['tool:evil/x', 'tool:evil/x#2']);
    const md = h.tree.resolveTreeItem(rows[0].item, rows[0].node).tooltip as vscode.MarkdownString;
    assert.equal(md.isTrusted, false);
    assert.ok(!md.value.includes('[here](command:'), 'the link is escaped');
    assert.equal(md.supportHtml, false, 'raw HTML is stripped when rendered');
  });
});
