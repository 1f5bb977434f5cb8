// Test-only offline language model with scripted replies (see README.md). Plain JavaScript: it is
// packed as its own .vsix, next to the extension under test, and never shipped.
const vscode = require('vscode');

/** @type {{ text?: string, calls?: { tool: string, input?: object, exact?: boolean }[], delayMs?: number }[]} */
let script = [];
/** @type {object[]} */
let requests = [];

const isToolResult = (p) => p && typeof p === 'object' && 'callId' in p && Array.isArray(p.content);
const isToolCall = (p) => p && typeof p === 'object' && 'callId' in p && 'name' in p && 'input' in p;
const textOf = (p) => (p && typeof p.value === 'string' ? p.value : '');
const isData = (p) => p && typeof p === 'object' && typeof p.mimeType === 'string' && ArrayBuffer.isView(p.data);
const resultText = (p) => p.content.map(textOf).join('');

/** Turns `key=value` words into arguments: numbers and booleans as such, the rest as strings. */
function parseArgs(words) {
  const args = {};
  for (const w of words) {
    const at = w.indexOf('=');
    if (at <= 0) continue;
    const raw = w.slice(at + 1);
    args[w.slice(0, at)] = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  return args;
}

const findTool = (names, tool, exact) => (exact ? tool : names.find((n) => n === tool) ?? names.find((n) => n.endsWith(`_${tool}`)) ?? tool);

/** A step's input with "$HANDLE" replaced by the last result handle (mcpres_...) the tool results named: handles are random. */
function withHandle(input, toolResults) {
  const handle = toolResults.map((r) => /mcpres_[A-Za-z0-9_-]{24}/.exec(r)?.[0]).filter(Boolean).pop();
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v === '$HANDLE' && handle ? handle : v]));
}

function record(messages, options) {
  const last = messages[messages.length - 1];
  const entry = {
    toolNames: (options.tools || []).map((t) => t.name),
    tools: (options.tools || []).map((t) => ({ name: t.name, description: t.description })),
    messages: messages.map((m) => ({
      role: m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant',
      text: m.content.map(textOf).join(''),
      calls: m.content.filter(isToolCall).map((c) => c.name),
      results: m.content.filter(isToolResult).map(resultText),
      // Data parts (images): their type, size and first bytes, so a test sees what arrived as an image.
      data: m.content.filter(isData).map((d) => ({ mimeType: d.mimeType, bytes: d.data.length, head: Array.from(d.data.subarray(0, 8)) })),
    })),
    toolResults: last.content.filter(isToolResult).map(resultText),
  };
  requests.push(entry);
  return entry;
}

exports.activate = (context) => {
  const out = vscode.window.createOutputChannel('MCP Test Model');
  context.subscriptions.push(
    vscode.commands.registerCommand('mcpFakeLm.setScript', (steps) => { script = Array.isArray(steps) ? [...steps] : []; requests = []; }),
    vscode.commands.registerCommand('mcpFakeLm.requests', () => requests),
    vscode.commands.registerCommand('mcpFakeLm.reset', () => { script = []; requests = []; }),
    vscode.commands.registerCommand('mcpFakeLm.invokeTool', (name, input) => invokeTool(out, name, input)),
    vscode.lm.registerLanguageModelChatProvider('mcpfake', {
      async provideLanguageModelChatInformation() {
        return [{ id: 'mcp-fake', name: 'MCP Test Model', family: 'mcp-fake', version: '1.0.0', detail: 'offline, scripted',
          maxInputTokens: 200000, maxOutputTokens: 8192, capabilities: { toolCalling: 128, imageInput: true },
          // proposed 'chatProvider' API (code-server --enable-proposed-api mcp-tool-host-tests.fakelm):
          // the default model, so a fresh profile's Chat view has a model without signing in anywhere
          isDefault: true, isUserSelectable: true }];
      },
      async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
        const entry = record(messages, options);
        out.appendLine(`request ${requests.length}: ${messages.length} messages, ${entry.toolNames.length} tools, ${entry.toolResults.length} tool results`);
        const step = script.shift();
        if (step) {
          if (step.delayMs) await new Promise((resolve) => { const t = setTimeout(resolve, step.delayMs); token.onCancellationRequested(() => { clearTimeout(t); resolve(); }); });
          if (step.text) progress.report(new vscode.LanguageModelTextPart(step.text));
          (step.calls || []).forEach((c, i) => progress.report(new vscode.LanguageModelToolCallPart(`call-${requests.length}-${i}`, findTool(entry.toolNames, c.tool, c.exact), withHandle(c.input || {}, entry.toolResults))));
          return;
        }
        if (entry.toolResults.length) {
          progress.report(new vscode.LanguageModelTextPart(`FAKE-MODEL-REPLY: ${entry.toolResults.join(' | ')}`));
          return;
        }
        const prompt = [...entry.messages].reverse().find((m) => m.role === 'user' && m.text)?.text ?? '';
        const match = /\bcall\s+([\w.-]+)((?:\s+[\w-]+=\S+)*)/.exec(prompt);
        if (match && entry.toolNames.length) {
          progress.report(new vscode.LanguageModelToolCallPart(`call-${requests.length}`, findTool(entry.toolNames, match[1], false), parseArgs(match[2].trim().split(/\s+/))));
          return;
        }
        progress.report(new vscode.LanguageModelTextPart(`FAKE-MODEL-REPLY: ${entry.toolNames.length} tools offered; you said: ${prompt}`));
      },
      async provideTokenCount(_model, text) {
        return Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4);
      },
    }),
  );
  out.appendLine('MCP test model registered');
  // resolve the models now, so the Chat view has a selected model before the first request
  setTimeout(() => vscode.lm.selectChatModels({ vendor: 'mcpfake' }).then((m) => out.appendLine(`models resolved: ${m.map((x) => x.id)}`)), 500);
};
/**
 * Calls a language-model tool as agent mode does outside a chat (no invocation token), and writes
 * what the model would read to the output channel. From the palette it asks for the tool (a pick
 * of every tool VS Code offers models) and its input (JSON).
 */
async function invokeTool(out, name, input) {
  if (typeof name !== 'string') {
    const pick = await vscode.window.showQuickPick(vscode.lm.tools.map((t) => ({ label: t.name, description: t.tags.join(', ') })), { title: 'Test Model: Invoke Tool', placeHolder: 'the tool to call' });
    if (!pick) return undefined;
    name = pick.label;
  }
  if (input === undefined) {
    const json = await vscode.window.showInputBox({ title: `Test Model: Invoke Tool ${name}`, prompt: 'its input, as JSON', value: '{}' });
    if (json === undefined) return undefined;
    try {
      input = JSON.parse(json);
    } catch (err) {
      out.appendLine(`invokeTool ${name}: the input is not JSON: ${err.message}`);
      out.show(true);
      return undefined;
    }
  }
  // One call at a time in the channel: what it shows is this call's result.
  out.clear();
  out.appendLine(`invokeTool ${name} ${JSON.stringify(input)}`);
  out.show(true);
  let text;
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    text = result.content.map(textOf).join('');
  } catch (err) {
    text = `threw: ${err instanceof Error ? err.message : String(err)}`;
  }
  out.appendLine(`invokeTool result: ${text}`);
  out.show(true);
  return text;
}

exports.deactivate = () => {};
