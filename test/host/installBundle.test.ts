import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { BundleDropController } from '../../src/vscode/install/bundleDrop';
import { mcpbTool, packGreeter } from './greeterBundle';
import { promptShown, sleep, until } from './wait';


/**
 * Install MCP Bundle... in the real extension host: a bundle packed here with the `mcpb` tool, given
 * to the command as a file (as a drop onto the Tools view gives it), reviewed, named, its values
 * asked (the secret into secret storage), unpacked into the extension's storage; then its tool is
 * listed and called.
 */
describe('Install MCP Bundle in the real extension host', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  // A folder with a space, as a user's '~/My Projects': a dropped file's URI carries it as %20.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'My Projects mcpb-'));
  const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
  const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

  before(async () => {
    api = (await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate());
  });
  after(async () => {
    const servers = { ...(settings().get<Record<string, unknown>>('servers') ?? {}) };
    delete servers.greeter;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reviews, asks, unpacks and writes the entry; the tool is listed and answers with the values given', async () => {
    const bundle = packGreeter(dir);
    const shown: string[] = [];
    // Each prompt answered as it comes: the review starts on "Do not install" (Install is above it).
    const answering = api.onDidShowPrompt(async (title) => {
      shown.push(title);
      await sleep(150);
      if (/^Install server "greeter"\?/.test(title)) await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
      else if (/needs "API key"/.test(title)) (api.lastPrompt() as vscode.InputBox).value = 'sekrit';
      else if (/in a sandbox\?$/.test(title)) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await accept();
    });
    let result: { installed: string } | undefined;
    try {
      result = await vscode.commands.executeCommand<{ installed: string } | undefined>('mcpToolHost.installBundle', vscode.Uri.file(bundle));
    } finally {
      answering.dispose();
    }
    assert.deepEqual(result, { installed: 'greeter' }, `prompts shown: ${JSON.stringify(shown)}`);
    assert.match(shown[0], /^Install server "greeter"\?/);
    assert.ok(shown.some((t) => /needs "Greeting"/.test(t)) && shown.some((t) => /needs "API key"/.test(t)), JSON.stringify(shown));

    const entry = settings().get<Record<string, { command: string; args: string[]; env: Record<string, string> }>>('servers')?.greeter;
    assert.ok(entry, 'the entry is in user settings');
    assert.equal(entry.command, 'node');
    const entryPoint = entry.args[0];
    assert.match(entryPoint, /globalStorage.*[/\\]bundles[/\\]greeter-[0-9a-f]{12}[/\\]server[/\\]index\.cjs$/);
    assert.ok(fs.statSync(entryPoint).isFile(), 'unpacked before the entry was written');
    assert.deepEqual(entry.args.slice(1), ['--greeting', 'Hello']);
    // The secret is not in settings: the entry names it, secret storage holds it.
    assert.deepEqual(entry.env, { GREETER_KEY: '${input:greeter.api_key}' });
    assert.ok(!JSON.stringify(settings().inspect('servers')?.globalValue).includes('sekrit'));

    await until('greeter running with its tool', () => api.pool.get('greeter')?.state.kind === 'running' && api.pool.get('greeter')!.tools.some((t) => t.name === 'greet'), 30_000);
    const outcome = await api.pipeline.call({ server: 'greeter', tool: 'greet', args: { name: 'Ann' }, origin: 'api' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    assert.ok(outcome.kind === 'ok' && outcome.result.text.startsWith('Hello, Ann! (key of 6 characters, from '), outcome.kind === 'ok' ? outcome.result.text : '');
  });

  it('refuses a bundle changed after signing with a clear error, and writes nothing', async () => {
    const source = path.join(dir, 'greeter.mcpb');
    const signed = path.join(dir, 'signed.mcpb');
    fs.copyFileSync(source, signed);
    mcpbTool(['sign', signed, '--self-signed']);
    const bytes = fs.readFileSync(signed);
    bytes[120] ^= 1;
    fs.writeFileSync(signed, bytes);
    const before = JSON.stringify(settings().inspect('servers')?.globalValue);
    const shown: string[] = [];
    const listener = api.onDidShowPrompt((t) => shown.push(t));
    try {
      const result = await vscode.commands.executeCommand('mcpToolHost.installBundle', signed);
      assert.equal(result, undefined);
    } finally {
      listener.dispose();
    }
    assert.deepEqual(shown, [], 'nothing was offered for install');
    assert.equal(JSON.stringify(settings().inspect('servers')?.globalValue), before);
  });

  it('a .mcpb dropped onto the Tools view opens the same review; cancelled there, nothing is written', async () => {
    const before = JSON.stringify(settings().inspect('servers')?.globalValue);
    const data = new vscode.DataTransfer();
    data.set('text/uri-list', new vscode.DataTransferItem(`${vscode.Uri.file(path.join(dir, 'notes.txt')).toString()}\r\n${vscode.Uri.file(path.join(dir, 'greeter.mcpb')).toString()}`));
    const review = promptShown(api, /^Install server "greeter"\?/);
    const dropped = new BundleDropController().handleDrop(undefined, data);
    await review;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await dropped;
    assert.equal(JSON.stringify(settings().inspect('servers')?.globalValue), before);
  });
});
