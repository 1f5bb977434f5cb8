'use strict';
// The policy floor of case 12: the least a stdio gateway that enforces a policy does for a tools/call,
// each step in its plainest form, to show what a complete path could cost beside the bare relay
// (stdio-relay.cjs) and the gateway. Per call: the message parsed; the tool looked up; its arguments
// checked against its schema (ajv, compiled once); the rule's verdict (allow-all, worked out once per
// tool); a rate-limit slot; a cancel flag the client's notifications/cancelled sets; the call sent on
// under an id of its own; the result's shape checked and its text blocks cleaned of invisible
// characters; an audit line (sha256 of the canonical arguments, appended with the turn's others);
// the answer written with the turn's others. Left out, as a floor should: pins, progress relay,
// forms and sampling during a call, tasks, the 2026-07-28 era, restarts, secret masking.
//   node bench/policy-floor.cjs <server> <command> [args...]   (tools offered as <server>_<tool>)
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Ajv = require('ajv');

const [prefix, command, ...args] = process.argv.slice(2);
const backend = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const ajv = new Ajv();
const auditFile = path.join(process.env.XDG_STATE_HOME || os.tmpdir(), `policy-floor-${process.pid}.jsonl`);
fs.mkdirSync(path.dirname(auditFile), { recursive: true });
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u2028\u2029\u00ad\u061c]|[\u{E0000}-\u{E007F}]/gu;

/** Writes of one turn in one system call. */
function turnWriter(stream) {
  let queued = [];
  return (text) => {
    if (queued.length === 0) setImmediate(() => ((stream.write(queued.join(''))), (queued = [])));
    queued.push(text);
  };
}
const toClient = turnWriter(process.stdout);
const toBackend = turnWriter(backend.stdin);
const auditLines = [];
const writeAudit = () => fs.appendFileSync(auditFile, auditLines.splice(0).join(''));

function lines(stream, onMessage) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const line of parts) if (line.trim() !== '') onMessage(JSON.parse(line));
  });
}

let nextId = 1;
const waiting = new Map();
function request(method, params) {
  const id = nextId++;
  toBackend(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}
lines(backend.stdout, (m) => {
  const w = m.id !== undefined && waiting.get(m.id);
  if (!w) return;
  waiting.delete(m.id);
  if (m.error) w.reject(m.error);
  else w.resolve(m.result);
});

const answer = (id, body) => toClient(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},${body}}\n`);
const toolError = (id, text) => answer(id, `"result":${JSON.stringify({ content: [{ type: 'text', text }], isError: true })}`);
const canonical = (value) => (value && typeof value === 'object' && !Array.isArray(value) ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}` : JSON.stringify(value));

let tools = new Map();
const verdicts = new Map();
const cancelled = new Map();
let slots = 1e9;

async function call(message) {
  const { id, params } = message;
  const name = typeof params.name === 'string' && params.name.startsWith(`${prefix}_`) ? params.name.slice(prefix.length + 1) : '';
  const tool = tools.get(name);
  if (!tool) return toolError(id, `No tool named "${params.name}".`);
  tool.validate ??= ajv.compile(tool.definition.inputSchema);
  const toolArgs = params.arguments ?? {};
  if (!tool.validate(toolArgs)) return toolError(id, `Invalid arguments: ${ajv.errorsText(tool.validate.errors)}`);
  let verdict = verdicts.get(name);
  if (!verdict) verdicts.set(name, (verdict = `allowed by rule 'bench' [${tool.definition.annotations?.readOnlyHint ? 'read-only' : 'may change things'}]`));
  if (slots-- <= 0) return toolError(id, 'Too many calls.');
  const cancel = { cancelled: false };
  cancelled.set(id, cancel);
  const startedAt = Date.now();
  let result;
  try {
    result = await request('tools/call', { name, arguments: toolArgs });
  } catch (error) {
    cancelled.delete(id);
    return cancel.cancelled || answer(id, `"error":${JSON.stringify({ code: error.code ?? -32603, message: String(error.message) })}`);
  }
  cancelled.delete(id);
  if (cancel.cancelled) return;
  if (!result || !Array.isArray(result.content)) return answer(id, `"error":{"code":-32602,"message":"Invalid tools/call result"}`);
  const content = result.content.map((block) => (block.type === 'text' && typeof block.text === 'string' ? { ...block, text: block.text.replace(INVISIBLE, '') } : block));
  if (auditLines.length === 0) setImmediate(writeAudit);
  const argsHash = crypto.createHash('sha256').update(canonical(toolArgs)).digest('hex').slice(0, 16);
  auditLines.push(JSON.stringify({ time: new Date(startedAt).toISOString(), callId: crypto.randomUUID().slice(0, 8), origin: 'gateway', server: prefix, tool: name, argsHash, decision: verdict, durationMs: Date.now() - startedAt, outcome: result.isError ? 'tool-error' : 'ok' }) + '\n');
  answer(id, `"result":${JSON.stringify({ ...result, content })}`);
}

const ready = (async () => {
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'policy-floor', version: '0' } });
  toBackend('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  tools = new Map((await request('tools/list', {})).tools.map((definition) => [definition.name, { definition, validate: undefined }]));
})();

lines(process.stdin, async (message) => {
  await ready;
  if (message.method === 'notifications/cancelled') {
    const cancel = cancelled.get(message.params?.requestId);
    if (cancel) cancel.cancelled = true;
    return;
  }
  if (message.id === undefined) return;
  if (message.method === 'initialize') return answer(message.id, `"result":${JSON.stringify({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'policy-floor', version: '0' } })}`);
  if (message.method === 'tools/list') return answer(message.id, `"result":${JSON.stringify({ tools: [...tools.values()].map((t) => ({ ...t.definition, name: `${prefix}_${t.definition.name}` })) })}`);
  if (message.method === 'tools/call') return call(message).catch((error) => answer(message.id, `"error":${JSON.stringify({ code: -32603, message: String(error) })}`));
  if (message.method === 'ping') return answer(message.id, '"result":{}');
  answer(message.id, '"error":{"code":-32601,"message":"Method not found"}');
});
process.stdin.on('end', () => {
  writeAudit();
  fs.rmSync(auditFile, { force: true });
  backend.stdin.end();
  process.exit(0);
});
