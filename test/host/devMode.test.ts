import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { FIXTURES } from './treeHarness';
import { until } from './wait';

/** Dev mode in the real extension host: VS Code's file watcher restarts the server, VS Code's debugger attaches to it. */
describe('dev mode for server authors (real VS Code watcher and debugger)', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  let dir: string;
  let toolsFile: string;
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const server = () => api.pool.get('authored');
  /** The process id the server's tool answers with, through the one call path. */
  /** The debug sessions attached to this server now, kept from their start to their end. */
  const sessions = new Set<vscode.DebugSession>();
  const ours = () => [...sessions].filter((s) => s.name.startsWith('MCP server: authored ('));
  /** The inspector port of the server's current launch. */
  const inspectorPort = () => Number(/ --inspect=127\.0\.0\.1:(\d+) /.exec(server()!.launchLine ?? '')?.[1]);
  const listeners = [vscode.debug.onDidStartDebugSession((s) => sessions.add(s)), vscode.debug.onDidTerminateDebugSession((s) => sessions.delete(s))];
  const pid = async () => {
    const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'authored', tool: server()!.tools[0].name, args: {} });
    return Number(outcome.kind === 'ok' ? outcome.result.text : 0);
  };

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    assert.ok(vscode.workspace.isTrusted, 'the test workspace is trusted');
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const name = `dev-${Date.now()}`;
    dir = path.join(folder, name);
    fs.mkdirSync(path.join(dir, 'build'), { recursive: true });
    toolsFile = path.join(dir, 'build', 'tools.json');
    fs.writeFileSync(toolsFile, JSON.stringify(['first']));
    const authored = { command: process.execPath, args: [path.join(FIXTURES, 'dev-server.cjs'), toolsFile], env: { ELECTRON_RUN_AS_NODE: '1' }, dev: { watch: `${name}/build/**`, debug: { type: 'node' } } };
    await config().update('servers', { authored }, vscode.ConfigurationTarget.Global);
    await until('the server in dev mode running', () => server()?.state.kind === 'running' && server()!.tools.length > 0, 40_000);
  });
  after(async () => {
    // Detach before the server goes: a session whose inspector is gone may fail to stop, which is fine.
    listeners.forEach((l) => l.dispose());
    await Promise.resolve(vscode.debug.stopDebugging()).catch(() => undefined);
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the row says "dev"; the debugger attached to the inspector on 127.0.0.1, which lists the server as its target', async () => {
    api.tree.getChildren(undefined);
    const item = api.tree.getTreeItem(api.tree.serverNode('authored')!);
    assert.match(String(item.description), /· dev$/);
    const session = await until('the debug session', () => vscode.debug.activeDebugSession ?? false, 30_000);
    assert.equal(session.name, `MCP server: authored (127.0.0.1:${session.configuration.port as number})`);
    assert.equal(session.configuration.address, '127.0.0.1');
    const port = session.configuration.port as number;
    assert.match(server()!.launchLine ?? '', new RegExp(` --inspect=127\\.0\\.0\\.1:${port} `));
    const targets = await new Promise<{ url: string }[]>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/json/list' }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(JSON.parse(body) as { url: string }[]));
      }).on('error', reject);
    });
    assert.match(targets[0].url, /dev-server\.cjs$/);
  });

  // build/ was made with its parent folder at once (mkdir -p, as a build does): VS Code's Linux watcher (@parcel/watcher)
  // then often never watches it (before dev mode's own watch, 1 or 2 runs in 6 failed here with no event after the save);
  // dev mode's watch of build/ (devFolderWatch.ts) hears the save in milliseconds.
  it('saving a watched file restarts the server (a new process) and lists its tools again; Restart still works', async () => {
    const before = await pid();
    assert.ok(before > 0);
    const firstPort = inspectorPort();
    // What the server went through, said when it does not come back.
    const states: string[] = [];
    const heard = server()!.onDidChangeState((s) => states.push(s.kind));
    fs.writeFileSync(toolsFile, JSON.stringify(['second']));
    await until('the restarted server with its new tools', () => server()?.state.kind === 'running' && server()!.tools[0]?.name === 'second', 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; states since the save: ${states.join(' > ') || 'none'}; tools: ${server()!.tools.map((t) => t.name).join(', ')}`);
    }).finally(() => heard.dispose());
    const after = await pid();
    assert.ok(after > 0 && after !== before, `${before} -> ${after}`);
    // The old process's debug session ended with it; one session, on the new launch's inspector.
    assert.notEqual(inspectorPort(), firstPort);
    await until('one debug session, on the new inspector', () => ours().length === 1 && ours()[0].configuration.port === inspectorPort(), 15_000).catch((err: Error) => {
      throw new Error(`${err.message}: sessions on ports ${ours().map((s) => s.configuration.port as number).join(', ') || 'none'}, the inspector on ${inspectorPort()}`);
    });
    await vscode.commands.executeCommand('mcpToolHost.restartServer', 'authored');
    await until('the server restarted by the user', async () => server()?.state.kind === 'running' && (await pid()) !== after, 30_000);
  });

  it('after the user ends the debug session, "Attach Debugger" on the row attaches again to the running server\'s inspector', async () => {
    await until('the server running', () => server()?.state.kind === 'running', 30_000);
    await until('its debug session', () => ours().length === 1, 15_000);
    await vscode.debug.stopDebugging(ours()[0]);
    await until('no debug session', () => ours().length === 0, 15_000);
    api.tree.getChildren(undefined);
    const item = api.tree.getTreeItem(api.tree.serverNode('authored')!);
    assert.match(String(item.contextValue), /;debuggable;/, 'the row offers Attach Debugger');
    await vscode.commands.executeCommand('mcpToolHost.tree.attachDebugger', api.tree.serverNode('authored'));
    const session = await until('the debug session attached again', () => ours()[0] ?? false, 15_000);
    assert.equal(session.configuration.request, 'attach');
    assert.equal(session.configuration.address, '127.0.0.1');
    assert.equal(session.configuration.port, inspectorPort());
  });
});
