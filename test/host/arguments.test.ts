import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { sleep, until } from './wait';

// The argument prompts of "MCP Tool Host: Call Tool..." and tree clicks, driven through the quick-open
// commands (accept, next, back, close) and the JSON editor's "Call" and "Cancel" commands (its
// editor-title buttons). The `type` command does not reach a quick input's box (it only types
// into text editors), so values come pre-filled from the last arguments, which an explicit call
// stores; typing into the boxes is covered by test/ui/argumentsUi.mjs.
const EXTENSION_ID = 'mcp-tool-host.mcp-tool-host';
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/argument-forms.cjs');

const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const userServers = () => ({ ...(settings().inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) });

/** Lets the quick input (re)appear after the previous step; no API tells when it is shown. */
const settle = () => sleep(700);
const accept = async () => {
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  await settle();
};
const next = (times = 1) => (async () => {
  for (let i = 0; i < times; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
})();
const call = (tool: string, args?: Record<string, unknown>) =>
  vscode.commands.executeCommand<CallOutcome | undefined>('mcpToolHost.callTool', { server: 'forms', tool, ...(args ? { args } : {}) });
const resultText = (outcome: CallOutcome | undefined) => {
  assert.ok(outcome && outcome.kind === 'ok', `expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.kind === 'ok' ? outcome.result.text : '';
};
// With its text: under load the editor once showed as active a moment before its text was there.
const argumentsEditor = (name: string) => until(`the "${name}" editor`, () => {
  const editor = vscode.window.activeTextEditor;
  return editor && editor.document.uri.scheme === 'untitled' && editor.document.uri.path === `${name} arguments.json` && editor.document.getText() !== '' && editor;
});
const replaceAll = async (editor: vscode.TextEditor, text: string) => {
  const doc = editor.document;
  await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
};
const diagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'MCP Tool Host').map((d) => d.message);

describe('Arguments: field by field, and as JSON', () => {
  let api: McpToolHostApi;
  let callsBegun = 0;
  let inFlight = 0;

  before(async () => {
    const ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
    api.pipeline.onDidChangeCallsInFlight((n) => {
      if (n > inFlight) callsBegun++;
      inFlight = n;
    });
    await settings().update('servers', { ...userServers(), forms: { command: process.execPath, args: [FIXTURE], env: { ELECTRON_RUN_AS_NODE: '1' } } }, vscode.ConfigurationTarget.Global);
    await until('forms running', () => api.pool.get('forms')?.state.kind === 'running' && api.pool.get('forms')!.tools.length > 0);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('mcpToolHost.cancelArgumentsEditor');
  });

  after(async () => {
    const servers = userServers();
    delete servers.forms;
    await settings().update('servers', Object.keys(servers).length ? servers : undefined, vscode.ConfigurationTarget.Global);
  });

  it('a tool without properties is called without asking anything', async () => {
    assert.equal(resultText(await call('no_args')), 'no_args {}');
  });

  it('asks each field in turn, pre-filled from the last arguments: a text box, an enum pick, a number box, a boolean pick, an empty optional box', async () => {
    resultText(await call('format_text', { text: 'hello', style: 'upper', repeat: 3 }));
    const pending = call('format_text');
    await settle();
    await accept(); // 1/5 text: "hello"
    await next(); // 2/5 style: "upper" is active; take the next, "title"
    await accept();
    await accept(); // 3/5 repeat: 3
    await next(); // 4/5 shout: no value yet, so "true" is active; take "false"
    await accept();
    await accept(); // 5/5 contact: empty, so left out
    assert.equal(resultText(await pending), 'format_text {"repeat":3,"shout":false,"style":"title","text":"hello"}');
  });

  it('Back returns to the previous step; "Skip" leaves an optional field out', async () => {
    const pending = call('format_text');
    await settle();
    await accept(); // text
    await accept(); // style: "title"
    await vscode.commands.executeCommand('workbench.action.quickInputBack'); // back on style, "title" active
    await settle();
    await next(); // "Skip"
    await accept();
    await accept(); // repeat 3
    await accept(); // shout: false from last time
    await accept(); // contact
    assert.equal(resultText(await pending), 'format_text {"repeat":3,"shout":false,"text":"hello"}');
  });

  it('a value that fails its field check (repeat 9 > 5) blocks Enter: nothing is sent', async () => {
    const refused = await call('format_text', { text: 'hi', repeat: 9 }); // refused, but remembered
    assert.equal(refused?.kind, 'invalid-arguments');
    const begun = callsBegun;
    const pending = call('format_text');
    await settle();
    for (let i = 0; i < 5; i++) await accept(); // text, style, then Enter on repeat three times
    assert.equal(callsBegun, begun, 'no call reached the pipeline');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await pending, undefined, 'Escape cancels the flow');
  });

  it('"Edit as JSON" in the field flow opens the editor with the values so far; Call runs it', async () => {
    resultText(await call('format_text', { text: 'from the flow', style: 'upper' }));
    const pending = call('format_text');
    await settle();
    await accept(); // text
    await next(3); // from "upper": title, Skip, then "Edit as JSON..." (below a separator)
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const editor = await argumentsEditor('Format Text');
    assert.deepEqual(JSON.parse(editor.document.getText()), { text: 'from the flow', style: 'upper', repeat: 1 });
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.runArgumentsEditor'), true);
    assert.equal(resultText(await pending), 'format_text {"repeat":1,"style":"upper","text":"from the flow"}');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.path === 'Format Text arguments.json'), 'the editor closed without a save prompt');
  });

  it('nested arguments open the JSON editor with a skeleton; bad JSON and schema problems keep it open, naming the field', async () => {
    const pending = call('plot_points');
    const editor = await argumentsEditor('Plot Points');
    assert.deepEqual(JSON.parse(editor.document.getText()), { points: [], label: 'chart' });
    await until('the empty list is marked', () => diagnostics(editor.document.uri).includes('points must have at least 1 item'));
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.runArgumentsEditor'), false, 'not called while points is empty');

    await replaceAll(editor, '{\n  "points": [{ "x": 1, "y": 2 }\n}');
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.runArgumentsEditor'), false, 'not called with broken JSON');
    await until('the JSON support marks the syntax error', () => vscode.languages.getDiagnostics(editor.document.uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source !== 'MCP Tool Host'));

    await replaceAll(editor, '{\n  "points": [{ "x": 1, "y": "two" }],\n  "scale": 0\n}');
    await until('both problems are marked', () => diagnostics(editor.document.uri).length === 2);
    assert.deepEqual(diagnostics(editor.document.uri).sort(), ['points[0].y must be a number', 'scale must be at least 0.1']);
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.runArgumentsEditor'), false);

    await replaceAll(editor, '{\n  "points": [{ "x": 1, "y": 2 }],\n  "scale": 2\n}');
    assert.equal(await vscode.commands.executeCommand('mcpToolHost.runArgumentsEditor'), true);
    assert.equal(resultText(await pending), 'plot_points {"points":[{"x":1,"y":2}],"scale":2}');
  });

  it('the JSON editor offers the last arguments again; Cancel closes it and calls nothing', async () => {
    const begun = callsBegun;
    const pending = call('plot_points');
    const editor = await argumentsEditor('Plot Points');
    assert.deepEqual(JSON.parse(editor.document.getText()), { points: [{ x: 1, y: 2 }], label: 'chart', scale: 2 });
    await vscode.commands.executeCommand('mcpToolHost.cancelArgumentsEditor');
    assert.equal(await pending, undefined);
    assert.equal(callsBegun, begun);
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.path === 'Plot Points arguments.json'), 'the editor closed');
  });

  it('a call the pipeline refuses reopens the flow on the field at fault instead of failing', async () => {
    resultText(await call('set_code', { code: 'abc' }));
    const pending = call('set_code');
    let settled = false;
    void pending.then(() => (settled = true));
    await settle(); // the prompt shows "abc", valid for the schema it was opened with
    // Meanwhile the server tightens the schema (list_changed): "abc" passes the prompt's check, not the pipeline's.
    resultText(await call('tighten_rules', {}));
    await until('the new schema', () => JSON.stringify(api.pool.findTool('forms', 'set_code')?.tool.inputSchema).includes('[0-9]'));
    const begun = callsBegun;
    await accept();
    await until('the refused call', () => callsBegun === begun + 1 && inFlight === 0);
    await settle();
    assert.equal(settled, false, 'the command did not end with invalid-arguments: the flow is open again');
    await accept(); // the reopened box holds "abc" and now says why: Enter is blocked
    assert.equal(callsBegun, begun + 1);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await pending, undefined);
  });
});
