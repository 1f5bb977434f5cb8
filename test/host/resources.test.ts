import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { OfferGroupNode, OfferNode } from '../../src/vscode/tree/treeNodes';
import type { OpenedAs } from '../../src/vscode/resources/openResource';
import { promptOpened, sleep, until } from './wait';

// Resources in the Tools view and the mcp-tool-host-resource: documents, with server-everything and our shelf
// fixture (a PNG, bytes, a counter that changes, a template with completions, hostile entries).
const EXTENSION_ID = 'mcp-tool-host.mcp-tool-host';
const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SHELF = path.resolve(__dirname, '../../../test/fixtures/servers/offers-vs-shelf.cjs');
const HOSTILE = path.resolve(__dirname, '../../../test/fixtures/servers/offers-hostile.cjs');
const env = { ELECTRON_RUN_AS_NODE: '1' };

const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const userServers = () => ({ ...(settings().inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) });

describe('Resources: rows, documents, templates, subscriptions', () => {
  let api: McpToolHostApi;
  const groups = (server: string) => {
    const node = api.tree.serverNode(server);
    return node ? api.tree.getChildren(node).filter((n): n is OfferGroupNode => n.kind === 'offerGroup') : [];
  };
  const rows = (server: string, group: string) => {
    const g = groups(server).find((n) => n.group === group);
    return g ? api.tree.getChildren(g).map((node) => ({ node: node as OfferNode, item: api.tree.getTreeItem(node) })) : [];
  };
  const row = (server: string, uri: string) => rows(server, 'resources').find((r) => r.node.group === 'resources' && r.node.entry.uri === uri);
  const click = async (item: vscode.TreeItem) => vscode.commands.executeCommand<OpenedAs>(item.command!.command, ...(item.command!.arguments ?? []));

  before(async () => {
    const ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    await settings().update('servers', { ...userServers(), everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env }, shelf: { command: process.execPath, args: [SHELF], env } }, vscode.ConfigurationTarget.Global);
    await until('both running', () => api.pool.get('everything')?.state.kind === 'running' && api.pool.get('shelf')?.state.kind === 'running');
    api.tree.getChildren();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const servers = userServers();
    delete servers.everything;
    delete servers.shelf;
    delete servers.modern;
    delete servers.shelf2;
    delete servers.churn;
    await settings().update('servers', Object.keys(servers).length ? servers : undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows Resources, Resource Templates and Prompts rows under server-everything, with counts', async () => {
    await until('three groups listed', () => groups('everything').length === 3 && groups('everything').every((g) => !String(api.tree.getTreeItem(g).description).includes('…')));
    const described = groups('everything').map((g) => `${String(api.tree.getTreeItem(g).label)}: ${String(api.tree.getTreeItem(g).description)}`);
    assert.deepEqual(described.map((d) => d.split(':')[0]), ['Resources', 'Resource Templates', 'Prompts']);
    assert.match(described[0]!, /\d+ resources/);
    assert.ok(rows('everything', 'resources').length > 0);
    const prompt = rows('everything', 'prompts')[0];
    assert.equal(prompt?.item.command?.command, 'mcpToolHost.runPrompt');
  });

  it('a server\'s Resources and Resource Templates rows appear in one redraw: no row is put in beside the count once it shows', async () => {
    // The view redraws a server's rows when told to (onDidChangeTreeData): each redraw is what a user sees.
    const drawn: string[][] = [];
    const seen = api.tree.onDidChangeTreeData(() => {
      api.tree.getChildren();
      drawn.push(groups('shelf2').map((g) => `${String(api.tree.getTreeItem(g).label)}: ${String(api.tree.getTreeItem(g).description)}`));
    });
    try {
      await settings().update('servers', { ...userServers(), shelf2: { command: process.execPath, args: [SHELF], env } }, vscode.ConfigurationTarget.Global);
      await until('both rows listed', () => drawn.some((rows) => rows.length === 2 && rows.every((r) => /\d/.test(r))), 20_000);
      // Drawn with its count, Resources had its Resource Templates row beside it from then on.
      const counted = drawn.filter((rows) => rows.some((r) => /^Resources: 8 resources$/.test(r)));
      assert.deepEqual(counted[0], ['Resources: 8 resources', 'Resource Templates: 1 template'], `the redraws: ${JSON.stringify(drawn)}`);
    } finally {
      seen.dispose();
      const servers = userServers();
      delete servers.shelf2;
    delete servers.churn;
      await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    }
  });

  it('a listing again after list_changed redraws the group rows it changed alone, not every row of the server', async () => {
    // Redraws that touch the server (its own row: all its rows drawn again) or one of its group rows, in order,
    // from the one that drew both rows with their counts.
    const redraws: string[] = [];
    const counted = () => groups('churn').length === 2 && groups('churn').every((g) => /\d/.test(String(api.tree.getTreeItem(g).description)));
    const seen = api.tree.onDidChangeTreeData((changed) => {
      // Drawn as the view does: the roots, then the server's rows (which lists them).
      api.tree.getChildren();
      if (!redraws.length && !counted()) return;
      for (const node of Array.isArray(changed) ? changed : changed ? [changed] : []) {
        if (node.kind === 'server' && node.server === 'churn') redraws.push('server');
        if (node.kind === 'offerGroup' && node.server === 'churn') redraws.push(node.group);
      }
    });
    try {
      await settings().update('servers', { ...userServers(), churn: { command: process.execPath, args: [SHELF], env: { ...env, LIST_CHANGED_MS: '200' } } }, vscode.ConfigurationTarget.Global);
      // The server says its resources changed every 200 ms: each listing after it (one a second) redraws.
      await until('the rows counted, then three listings again', () => redraws.length >= 4, 20_000);
      assert.deepEqual(redraws.slice(1, 4).filter((r) => r === 'server'), [], `the redraws: ${redraws.join(', ')}`);
    } finally {
      seen.dispose();
      const servers = userServers();
      delete servers.churn;
      await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    }
  });

  it('opens a text resource read-only with its content and language', async () => {
    const r = await until('readme row', () => row('shelf', 'shelf://notes/readme.md'));
    const opened = await click(r.item);
    assert.equal(opened.kind, 'text');
    const editor = await until('the editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'mcp-tool-host-resource' && vscode.window.activeTextEditor);
    assert.equal(editor.document.getText(), '# Shelf\n\nhello from the shelf');
    assert.equal(editor.document.languageId, 'markdown');
    // Read-only: the editor says so and saving could not write (no server write exists).
    assert.equal(vscode.workspace.fs.isWritableFileSystem('mcp-tool-host-resource'), false);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(editor.document.uri, new Uint8Array([1]))));
  });

  it('a read larger than mcpToolHost.maxResourceSize fails saying so, and opens once the setting allows it', async () => {
    await settings().update('maxResourceSize', 1, vscode.ConfigurationTarget.Global);
    try {
      const refused = await api.offers.resources().read({ server: 'shelf', uri: 'shelf://big.txt', origin: 'tree' });
      assert.ok(refused.kind === 'failed' && /over the 1 MiB a read may bring \(setting mcpToolHost.maxResourceSize\)/.test(refused.message), JSON.stringify(refused).slice(0, 300));
    } finally {
      await settings().update('maxResourceSize', undefined, vscode.ConfigurationTarget.Global);
    }
    const r = await until('big row', () => row('shelf', 'shelf://big.txt'));
    const opened = await click(r.item);
    assert.equal(opened.kind, 'text');
    const editor = await until('the editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'mcp-tool-host-resource' && vscode.window.activeTextEditor);
    assert.equal(editor.document.lineCount, 90_001);
  });

  it('opens an image resource in the image preview, under our scheme', async () => {
    const opened = await click((await until('logo row', () => row('shelf', 'shelf://img/logo.png'))).item);
    assert.equal(opened.kind, 'image');
    const tab = await until('the image tab', () => vscode.window.tabGroups.activeTabGroup.activeTab);
    assert.ok(tab.input instanceof vscode.TabInputCustom, 'a custom editor');
    assert.equal(tab.input.viewType, 'imagePreview.previewEditor');
    assert.equal(tab.input.uri.scheme, 'mcp-tool-host-resource');
    // The preview read it through our file system (which subscribes to what it reads for a tab).
    await until('the image read', () => api.resourceFs.watching.some((u) => u.includes('logo')));
  });

  it('saves a binary resource VS Code cannot show to the file it is given, byte for byte (Save As...)', async () => {
    const r = await until('data.bin row', () => row('shelf', 'shelf://bin/data.bin'));
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-save-'));
    try {
      const file = vscode.Uri.file(path.join(folder, 'saved.bin'));
      const opened = await vscode.commands.executeCommand<OpenedAs>(r.item.command!.command, ...(r.item.command!.arguments ?? []), file);
      assert.deepEqual(opened, { kind: 'saved', file });
      assert.deepEqual([...fs.readFileSync(file.fsPath)], [0, 1, 2, 3, 255]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refreshes an open resource when the server says it changed, and unsubscribes on close', async () => {
    await click((await until('counter row', () => row('shelf', 'shelf://counter'))).item);
    const editor = await until('counter editor', () => vscode.window.activeTextEditor?.document.uri.path.includes('counter') && vscode.window.activeTextEditor);
    const first = editor.document.getText();
    assert.match(first, /^count \d+$/);
    const before = api.resourceFs.updates;
    await until('an update from the server', () => api.resourceFs.updates > before, 10_000);
    await until('a newer count', () => editor.document.getText() !== first && /^count \d+$/.test(editor.document.getText()), 10_000);
    assert.ok(api.resourceFs.watching.some((u) => u.includes('counter')));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until('unsubscribed', () => !api.resourceFs.watching.some((u) => u.includes('counter')));
  });

  it('fills a template field by field with completions, and opens it', async () => {
    const template = await until('template row', () => rows('shelf', 'templates')[0]);
    const shown = promptOpened(api, /color/);
    const opening = click(template.item);
    await shown;
    const pick = api.lastPrompt() as vscode.QuickPick<vscode.QuickPickItem & { value: string }>;
    pick.value = 'bl';
    await until('suggestions for "bl"', () => pick.items.some((i) => i.value === 'blue') && pick.items.some((i) => i.value === 'black') && !pick.items.some((i) => i.value === 'red'));
    await sleep(600); // the answer for "bl" itself (after the typing pause), not the first one filtered
    assert.ok(!pick.busy && !pick.items.some((i) => i.value === 'green'));
    pick.activeItems = pick.items.filter((i) => i.value === 'blue');
    await sleep(200);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const opened = await opening;
    assert.equal(opened?.kind, 'text');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), 'the color blue');
  });

  it('Run Prompt asks each argument in a box with the server\'s completions (the second narrowed by the first), then opens the messages', async () => {
    type Box = vscode.QuickPick<vscode.QuickPickItem & { value: string }>;
    const choose = async (title: RegExp, typed: string, wanted: string, others: readonly string[]) => {
      const pick = (await until(`a box titled ${title}`, () => {
        const shown = api.lastPrompt() as Box | undefined;
        return shown && title.test(shown.title ?? '') && shown;
      })) as Box;
      pick.value = typed;
      await until(`${wanted} suggested for "${typed}"`, () => pick.items.some((i) => i.value === wanted) && !others.some((o) => pick.items.some((i) => i.value === o))).catch((err: Error) => {
        throw new Error(`${err.message}; the box shows ${JSON.stringify(pick.items.map((i) => i.value))}${pick.busy ? ', still asking the server' : ''}`);
      });
      pick.activeItems = pick.items.filter((i) => i.value === wanted);
      await sleep(200);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    };
    const running = vscode.commands.executeCommand<vscode.TextDocument | undefined>('mcpToolHost.runPrompt', { server: 'everything', prompt: 'completable-prompt' });
    await choose(/department/i, 'S', 'Sales', ['Engineering']);
    // The server narrows the names by the department chosen: Sales has David, Eve and Frank.
    await choose(/name/i, '', 'Eve', ['Alice']);
    const doc = await running;
    assert.ok(doc, 'the messages opened');
    assert.equal(doc.languageId, 'markdown');
    assert.match(doc.getText(), /Sales/);
    assert.match(doc.getText(), /Eve/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('2026-07-28: a server of the new revision shows its resources in the view, and one opens', async () => {
    await settings().update('servers', { ...userServers(), modern: { command: process.execPath, args: [HOSTILE], env: { ...env, MODERN: '1' } } }, vscode.ConfigurationTarget.Global);
    const running = await until('modern running', () => {
      const state = api.pool.get('modern')?.state;
      return state?.kind === 'running' && state;
    });
    assert.equal(running.protocolVersion, '2026-07-28');
    // The view's root is read again, as the view does when the set of servers changed.
    const r = await until('a resource row of the 2026-07-28 server', () => (api.tree.getChildren(), row('modern', 'hostile://r/1')), 20_000);
    const opened = await click(r.item);
    assert.equal(opened.kind, 'text');
    await until('its text', () => vscode.window.activeTextEditor?.document.getText() === 'resource 1');
  });

  it('hostile: a name with control characters and markdown is escaped; javascript: and file: URIs open only under our scheme', async () => {
    const evil = await until('evil row', () => row('shelf', 'shelf://evil'));
    const label = String(evil.item.label);
    assert.ok(![...label].some((c) => c === String.fromCharCode(7) || c === String.fromCharCode(0x202e)), label);
    assert.equal(typeof evil.item.tooltip, 'string', 'no markdown tooltip');
    for (const uri of ['javascript:alert(1)', 'file:///etc/passwd']) {
      const r = await until(uri, () => row('shelf', uri));
      const opened = await click(r.item);
      const shownUris = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined)).filter((u): u is vscode.Uri => !!u);
      assert.ok(shownUris.every((u) => u.scheme === 'mcp-tool-host-resource'), shownUris.map(String).join(', '));
      if (opened.kind === 'text') assert.equal(opened.uri.scheme, 'mcp-tool-host-resource');
    }
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.path === '/etc/passwd'));
  });

  it('Set Log Level sets it on the server\'s connection, which asks it again at each start', async () => {
    assert.equal(api.pool.get('shelf')?.logLevel, undefined);
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.setLogLevel', 'shelf', 'debug'), 'debug');
    // What the server is sent, in each era, and the messages that follow: offersPrompts.test.ts, cliPrompts.test.ts.
    assert.equal(api.pool.get('shelf')?.logLevel, 'debug');
  });
});
