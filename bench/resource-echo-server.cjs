'use strict';
// The raw echo server's resources twin (../shared/reference/raw-echo-server.cjs), for bench case 11:
// no deps, no validation, newline-delimited JSON-RPC, answers pre-serialised once.
//   initialize               -> capabilities { resources: {} }
//   resources/list           -> RAW_RESOURCES resources (env), PAGE a page (env, default 1000), cursor = next index
//   resources/read bench://big/<size> -> one text item of <size> characters (cached per size)
//   anything else            -> {}
const N = Number(process.env.RAW_RESOURCES || 1);
const PAGE = Number(process.env.PAGE || 1000);
const pages = new Map();
function page(start) {
  let json = pages.get(start);
  if (json) return json;
  const resources = [];
  for (let i = start; i < Math.min(N, start + PAGE); i++) {
    resources.push({ uri: `bench://resource/${i}`, name: `resource_${i}`, title: `Synthetic resource number ${i}`, description: `Synthetic resource number ${i} used for resources/list benchmarking.`, mimeType: 'text/plain', size: 1024 });
  }
  json = JSON.stringify(start + PAGE < N ? { resources, nextCursor: String(start + PAGE) } : { resources });
  pages.set(start, json);
  return json;
}
const big = new Map();
function bigText(size) {
  let s = big.get(size);
  if (!s) {
    const line = '{"path": "C:\\\\src\\\\file.ts", "line": 42, "msg": "unused variable \'x\'"}\n';
    s = line.repeat(Math.ceil(size / line.length)).slice(0, size);
    big.set(size, s);
  }
  return s;
}

const out = process.stdout;
function handle(line) {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  let resultJson;
  if (msg.method === 'initialize') {
    resultJson = JSON.stringify({ protocolVersion: msg.params.protocolVersion, capabilities: { resources: {} }, serverInfo: { name: 'raw-resources', version: '0.0.0' } });
  } else if (msg.method === 'resources/list') {
    resultJson = page(Number(msg.params?.cursor ?? 0));
  } else if (msg.method === 'resources/read') {
    const uri = String(msg.params.uri);
    const size = Number(uri.slice('bench://big/'.length));
    resultJson = JSON.stringify({ contents: [{ uri, mimeType: 'text/plain', text: bigText(size) }] });
  } else {
    resultJson = '{}';
  }
  out.write('{"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + ',"result":' + resultJson + '}\n');
}

require('./serveLines.cjs')(handle);
