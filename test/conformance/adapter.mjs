// The client the official MCP conformance suite (@modelcontextprotocol/conformance) drives: our
// headless CLI, dist/cli.js. The suite starts a test server, then runs this script with the
// server's URL as the last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO (some
// scenarios add credentials in MCP_CONFORMANCE_CONTEXT). We do what a user of the CLI would: list
// the tools, then call the one the scenario is about. Exit code: the CLI's last one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** The call each scenario is about (name and arguments); null: listing the tools is all it asks. Others call the first tool. */
/** @type {Record<string, [string, Record<string, unknown>] | null>} */
const CALLS = {
  initialize: null,
  tools_call: ['add_numbers', { a: 5, b: 3 }],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
  'sse-retry': ['test_reconnection', {}],
};

if (!/^https?:\/\//.test(url)) {
  console.error(`adapter: the server URL must be the last argument, not ${JSON.stringify(url)}`);
  process.exit(2);
}
// Everything the CLI keeps (config, audit log) stays in a folder of this run.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
const config = path.join(dir, 'servers.json');
fs.writeFileSync(config, JSON.stringify({ servers: { s: { type: 'http', url } } }));
// A form the server sends during a call is answered with its defaults (the suite checks SEP-1034 defaults).
// A sign-in page opens in browser.mjs, which follows the suite's redirects back to the CLI, as a browser would.
const browser = `"${process.execPath}" "${path.join(root, 'test/conformance/browser.mjs')}"`;
const flags = ['--config', config, '--json', '--yes', '--trust-config', '--elicitation', 'defaults', '--browser', browser, '--audit', path.join(dir, 'audit.jsonl')];

/** Runs the CLI with `args`, prints what it said (the suite keeps it), returns its result. @param {string[]} args */
function cli(args) {
  const run = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), ...args, ...flags], { encoding: 'utf8', timeout: 25_000, env: { ...process.env, XDG_STATE_HOME: dir } });
  console.log(`$ mcp-tool-host ${args.join(' ')}: exit ${run.status ?? run.signal}`);
  if (run.stdout) console.log(run.stdout.trimEnd());
  if (run.stderr) console.error(run.stderr.trimEnd());
  return run;
}

/** The tool names in `tools --json` output. @param {string} stdout */
function toolNames(stdout) {
  try {
    const listed = /** @type {{ tools?: { name?: unknown }[] }[] | { tools?: { name?: unknown }[] }} */ (JSON.parse(stdout));
    return (Array.isArray(listed) ? listed : [listed]).flatMap((s) => s.tools ?? []).map((t) => t.name).filter(/** @returns {n is string} */ (n) => typeof n === 'string');
  } catch {
    return [];
  }
}

/** Lists the tools, then makes the scenario's call; the exit code of the last CLI run. */
function drive() {
  const list = cli(['tools', 's']);
  /** @type {[string, Record<string, unknown>] | null} */
  const call = scenario in CALLS ? CALLS[scenario] : [toolNames(list.stdout)[0] ?? 'test-tool', {}];
  return (call ? cli(['call', 's', call[0], '--args', JSON.stringify(call[1])]) : list).status ?? 4;
}

try {
  process.exitCode = drive();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
