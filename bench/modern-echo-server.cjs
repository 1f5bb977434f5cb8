'use strict';
// The raw echo server of ../shared/reference in the 2026-07-28 revision, for cases 1-3 in that era:
// it answers server/discover (so our client negotiates the era), stamps every result with
// resultType "complete", and otherwise does the same: tools/list of RAW_TOOLS tools (OUTSCHEMA=1:
// with output schemas), tools/call echo -> its text. No validation, results pre-serialized.
const N_TOOLS = Number(process.env.RAW_TOOLS || 1);
const MODERN = '2026-07-28';
let toolsJson = null;
function toolsList() {
  if (toolsJson) return toolsJson;
  const tools = [];
  for (let i = 0; i < N_TOOLS; i++) {
    tools.push({
      name: i === 0 ? 'echo' : `tool_${i}`,
      description: `Synthetic tool number ${i} used for tools/list benchmarking.`,
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'text' }, count: { type: 'integer', minimum: 0 }, mode: { type: 'string', enum: ['a', 'b', 'c'] } },
        required: ['text'],
        additionalProperties: false,
        $schema: 'http://json-schema.org/draft-07/schema#',
      },
      annotations: { readOnlyHint: true },
      ...(process.env.OUTSCHEMA === '1' && i > 0 ? { outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } }, required: ['id', 'score'], additionalProperties: false } } }, required: ['ok', 'items'], additionalProperties: false } } : {}),
    });
  }
  toolsJson = JSON.stringify({ resultType: 'complete', tools, ttlMs: 0 });
  return toolsJson;
}

const capabilities = { tools: {} };
const out = process.stdout;
function handle(line) {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return; // notification
  let resultJson;
  if (msg.method === 'server/discover') {
    resultJson = JSON.stringify({ resultType: 'complete', supportedVersions: [MODERN], capabilities, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw-echo-modern', version: '0.0.0' } } });
  } else if (msg.method === 'initialize') {
    resultJson = JSON.stringify({ protocolVersion: msg.params.protocolVersion, capabilities, serverInfo: { name: 'raw-echo-modern', version: '0.0.0' } });
  } else if (msg.method === 'tools/list') {
    resultJson = toolsList();
  } else if (msg.method === 'tools/call') {
    const a = msg.params.arguments || {};
    resultJson = JSON.stringify({ resultType: 'complete', content: [{ type: 'text', text: a.text ?? 'ok' }] });
  } else {
    resultJson = '{"resultType":"complete"}';
  }
  out.write('{"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + ',"result":' + resultJson + '}\n');
}

require('./serveLines.cjs')(handle);
