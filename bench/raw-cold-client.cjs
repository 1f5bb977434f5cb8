'use strict';
// The floor for a cold CLI run (case 14): a hand-written JSON-RPC client that spawns a stdio
// server, initializes, makes one request, prints the answer and exits (the server sees its stdin
// end and goes on its own). No validation, no policy, no audit.
// usage: node raw-cold-client.cjs call TOOL ARGS_JSON -- COMMAND [ARG...]
//        node raw-cold-client.cjs tools -- COMMAND [ARG...]
const { spawn } = require('node:child_process');

const [mode, ...rest] = process.argv.slice(2);
const dash = rest.indexOf('--');
const [command, ...args] = rest.slice(dash + 1);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
const pending = new Map();
let nextId = 0;
let buffered = '';
child.stdout.setEncoding('utf8').on('data', (text) => {
  const lines = (buffered + text).split('\n');
  buffered = lines.pop();
  for (const line of lines) {
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id !== undefined && msg.method) send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
    else if (msg.id !== undefined && pending.has(msg.id)) pending.get(msg.id)(msg);
  }
});
const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
const request = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, (msg) => (msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result)));
  send({ jsonrpc: '2.0', id, method, params });
});

(async () => {
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-cold', version: '0' } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const result = mode === 'tools' ? await request('tools/list', {}) : await request('tools/call', { name: rest[0], arguments: JSON.parse(rest[1]) });
  const out = mode === 'tools' ? result.tools.map((t) => t.name).join('\n') : result.content.map((c) => c.text ?? '').join('\n');
  process.stdout.write(`${out}\n`, () => {
    child.stdin.end();
    process.exit(0);
  });
})().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
