// Issue 31, "The screen and the disk": what a server's binary content leaves in the extension's
// storage (globalStorage/results), in the running extension, with a real server
// (fixtures/servers/result-flood.cjs) that floods it with images and sends types that run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { FIXTURES } from './treeHarness';
import { until } from './wait';

const flood = { command: process.execPath, args: [path.join(FIXTURES, 'result-flood.cjs')], env: { ELECTRON_RUN_AS_NODE: '1' } };
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
/** Extensions a browser, VS Code or the OS would render with scripts or run. */
const ACTIVE_EXTENSION = /\.(html?|xhtml|svg|svgz|js|mjs|xml|xsl|hta|exe|bat|cmd|ps1|vbs|msi|lnk|scr|jar)$/i;

/** The text of a call's result (it must have one). */
function resultText(outcome: CallOutcome): string {
  assert.equal(outcome.kind, 'ok', JSON.stringify(outcome).slice(0, 500));
  return outcome.kind === 'ok' ? outcome.result.text : '';
}
/** Every file a result says it saved. */
const savedFiles = (text: string) => [...text.matchAll(/ saved to (.+?)(?: \(|$)/gm)].map((m) => m[1]);
const folderBytes = (dir: string) => fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);

describe('the disk: binary results in VS Code (issue 31)', () => {
  let api: McpToolHostApi;
  const call = async (tool: string, args: Record<string, unknown> = {}) => resultText(await api.pipeline.call({ server: 'flood', tool, args, origin: 'api' }));

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await settings().update('servers', { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue, flood }, vscode.ConfigurationTarget.Global);
    await until('flood running with its tools', () => api.pool.get('flood')?.state.kind === 'running' && api.pool.get('flood')!.tools.length > 0);
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.flood;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    await settings().update('results.maxSize', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('results.maxAgeDays', undefined, vscode.ConfigurationTarget.Global);
  });

  it('one call that returns more than the results budget saves what fits, and says what was left out', async () => {
    await settings().update('results.maxSize', 1, vscode.ConfigurationTarget.Global);
    const text = await call('images', { count: 100, kib: 20 });
    const saved = savedFiles(text);
    assert.ok(saved.length > 0 && saved.length <= 51, `${saved.length} saved`);
    for (const file of saved) assert.ok(fs.existsSync(file), `${file} was said to be saved`);
    const left = text.match(/\[image image\/png, 20480 bytes\] not saved: the results folder is full \(mcpToolHost\.results\.maxSize: 1 MiB\)/g)?.length ?? 0;
    assert.equal(saved.length + left, 100, text.slice(0, 1000));
    assert.ok(folderBytes(path.dirname(saved[0])) <= 1024 * 1024, `${folderBytes(path.dirname(saved[0]))} bytes in the results folder`);
  });

  it('files older than mcpToolHost.results.maxAgeDays go at the next save', async () => {
    await settings().update('results.maxAgeDays', 7, vscode.ConfigurationTarget.Global);
    const [first] = savedFiles(await call('images', { count: 1, kib: 1 }));
    const old = path.join(path.dirname(first), '0-old.png');
    fs.writeFileSync(old, 'x');
    const monthAgo = new Date(Date.now() - 30 * 24 * 3600_000);
    fs.utimesSync(old, monthAgo, monthAgo);
    await call('images', { count: 1, kib: 1 });
    assert.ok(!fs.existsSync(old), 'a 30-day-old file is still there');
  });

  it('an active type (SVG, HTML, XHTML, JavaScript, a program) is saved with an inert extension, and the result says so', async () => {
    const text = await call('active');
    const saved = savedFiles(text);
    assert.equal(saved.length, 8, text);
    for (const file of saved) assert.doesNotMatch(file, ACTIVE_EXTENSION);
    assert.match(text, /\[image image\/svg\+xml, \d+ bytes\] saved to .+\.svg\.txt \(saved as text: image\/svg\+xml can run scripts when opened\)/);
    assert.match(text, /\(text\/html\) saved to .+\.html\.txt \(saved as text: text\/html can run scripts when opened\)/);
  });
});
