import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { promptShown, until } from './wait';

// "Allow calls like this one..." in the approval prompt, answered in the real quick inputs: the
// rule lands in the user's mcpToolHost.rules, and the next call in that folder runs unasked.
const FILESYSTEM = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const userServers = () => ({ ...(settings().inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) });
const command = (id: string) => vscode.commands.executeCommand(id);
const within = <T>(ms: number, what: string, p: Thenable<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (a prompt appeared?)`)), ms))]);

describe('"Allow calls like this one..." in the real extension host', () => {
  let api: McpToolHostApi;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'like-this-')));
  const notes = path.join(dir, 'notes');
  const other = path.join(dir, 'other');
  const write = (file: string, content: string) => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'files', tool: 'write_file', args: { path: file, content } });
  const approval = () => promptShown(api, /^Approve "Write File" \(write_file\) on files\?/);

  before(async () => {
    fs.mkdirSync(notes);
    fs.mkdirSync(other);
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await settings().update('rules', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('servers', { ...userServers(), files: { command: process.execPath, args: [FILESYSTEM, dir], env: { ELECTRON_RUN_AS_NODE: '1' } } }, vscode.ConfigurationTarget.Global);
    await until('files running', () => api.pool.get('files')?.state.kind === 'running' && api.pool.get('files')!.tools.length > 0);
  });
  after(async () => {
    await command('workbench.action.closeQuickOpen');
    const servers = userServers();
    delete servers.files;
    await settings().update('servers', Object.keys(servers).length ? servers : undefined, vscode.ConfigurationTarget.Global);
    await settings().update('rules', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('saves a rule "under its folder": the next call in that folder runs without a prompt, one outside still asks', async () => {
    const asked = approval();
    const first = write(path.join(notes, 'one.txt'), 'one');
    await asked;
    // A destructive call starts on Deny; the item below it (past the "rules" separator) is "Allow calls like this one...".
    const pathStep = promptShown(api, /^Allow calls like this one \(1\/2\): argument "path"$/);
    await command('workbench.action.quickOpenSelectNext');
    await command('workbench.action.acceptSelectedQuickOpenItem');
    await pathStep;
    const contentStep = promptShown(api, /^Allow calls like this one \(2\/2\): argument "content"$/);
    await command('workbench.action.acceptSelectedQuickOpenItem'); // the first choice: under its folder
    await contentStep;
    const saveStep = promptShown(api, /^Save this rule to your user settings/);
    await command('workbench.action.quickOpenSelectNext'); // past "Exactly this value" to "Any value"
    await command('workbench.action.acceptSelectedQuickOpenItem');
    await saveStep;
    await command('workbench.action.acceptSelectedQuickOpenItem');

    assert.equal((await first).kind, 'ok', 'this call was allowed once');
    assert.equal(fs.readFileSync(path.join(notes, 'one.txt'), 'utf8'), 'one');
    assert.deepEqual(settings().inspect('rules')?.globalValue, [
      { name: 'write_file like this', server: 'files', tool: 'write_file', effect: 'allow', when: [{ pointer: '/path', under: notes }] },
    ]);

    // The setting reaches the rules when VS Code tells the extension it changed.
    await until('the rule in force', () => api.pipeline.forecast({ server: 'files', tool: 'write_file', args: { path: path.join(notes, 'two.txt'), content: 'two' } }).kind === 'runs');
    assert.equal((await within(10_000, 'a call in the allowed folder', write(path.join(notes, 'two.txt'), 'two'))).kind, 'ok');
    assert.equal(fs.readFileSync(path.join(notes, 'two.txt'), 'utf8'), 'two');

    const askedOutside = approval();
    const outside = write(path.join(other, 'three.txt'), 'three');
    await askedOutside;
    await command('workbench.action.closeQuickOpen');
    assert.equal((await outside).kind, 'denied', 'outside the folder it asked, and Escape denied');
    assert.equal(fs.existsSync(path.join(other, 'three.txt')), false);
  });

  it('Escape while choosing goes back to the approval prompt and allows nothing', async () => {
    const asked = approval();
    const pending = write(path.join(other, 'four.txt'), 'four');
    await asked;
    const pathStep = promptShown(api, /^Allow calls like this one \(1\/2\)/);
    await command('workbench.action.quickOpenSelectNext');
    await command('workbench.action.acceptSelectedQuickOpenItem');
    await pathStep;
    const askedAgain = approval();
    await command('workbench.action.closeQuickOpen');
    await askedAgain;
    await command('workbench.action.closeQuickOpen');
    assert.equal((await pending).kind, 'denied');
    assert.equal(fs.existsSync(path.join(other, 'four.txt')), false);
    assert.equal((settings().inspect<unknown[]>('rules')?.globalValue ?? []).length, 1, 'no second rule was saved');
  });
});
