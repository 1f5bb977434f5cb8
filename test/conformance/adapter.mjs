// The client the official MCP conformance suite (@modelcontextprotocol/conformance) drives: our
// headless CLI, dist/cli.js. The suite starts a test server, then runs this script with the
// server's URL as the last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO (some
// scenarios add credentials in MCP_CONFORMANCE_CONTEXT). We do what a user of the CLI would: list
// the tools, then call the one the scenario is about. Exit code: the CLI's last one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** @typedef {{ name?: unknown, inputSchema?: unknown }} ListedTool */
/** @typedef {[string, Record<string, unknown>]} Call */

/**
 * The calls each scenario is about (tool name and arguments, made in order, one CLI run each), or
 * a function of the listed tools that picks them; none: listing the tools is all it asks. Others
 * call the first tool. A scenario that names its calls in MCP_CONFORMANCE_CONTEXT (`toolCalls`)
 * gets those.
 * @type {Record<string, Call[] | ((tools: ListedTool[]) => Call[])>}
 */
const CALLS = {
  initialize: [],
  tools_call: [['add_numbers', { a: 5, b: 3 }]],
  'elicitation-sep1034-client-defaults': [['test_client_elicitation_defaults', {}]],
  'sse-retry': [['test_reconnection', {}]],
  // Its server has no tools: its checks are on the _meta and headers of every request.
  'request-metadata': [],
  // The tool whose x-mcp-header is valid; the others must not even be listed.
  'http-invalid-tool-headers': [['valid_tool', { region: 'us-west1' }]],
  // Its server answers tools/list only: what it checks is that listing fetched no network $ref.
  'json-schema-ref-no-deref': [],
  // Hands the focal tool's inputSchema, as `tools --json` shows it, back to the echo tool.
  'json-schema-2020-12-preservation': (tools) => [['json_schema_echo', { schema: tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema ?? {} }]],
  // Each of its tools checks one rule of input_required rounds (a form answered with its defaults).
  'sep-2322-client-request-state': [['test_mrtr_echo_state', {}], ['test_mrtr_no_state', {}], ['test_mrtr_unrelated', {}], ['test_mrtr_no_result_type', {}]],
};

if (!/^https?:\/\//.test(url)) {
  console.error(`adapter: the server URL must be the last argument, not ${JSON.stringify(url)}`);
  process.exit(2);
}
// Everything the CLI keeps (config, audit log, a key) stays in a folder of this run.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
const config = path.join(dir, 'servers.json');
/** @type {Record<string, string>} Secrets reach the CLI as a user's would: environment variables the config names. */
const secretEnv = {};
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const oauth = oauthSettings(scenario, context);
/** @type {Call[] | undefined} The calls a scenario names in its context, each `{ name, arguments }`. */
const contextCalls = Array.isArray(context.toolCalls) ? context.toolCalls.map((/** @type {{ name: string, arguments?: Record<string, unknown> }} */ c) => [c.name, c.arguments ?? {}]) : undefined;
fs.writeFileSync(config, JSON.stringify({ servers: { s: { type: 'http', url, ...(oauth && { oauth }) } } }));
// A form the server sends during a call is answered with its defaults (the suite checks SEP-1034 defaults).
// A sign-in page opens in browser.mjs, which follows the suite's redirects back to the CLI, as a browser would.
const browser = `"${process.execPath}" "${path.join(root, 'test/conformance/browser.mjs')}"`;
const flags = ['--config', config, '--json', '--yes', '--trust-config', '--elicitation', 'defaults', '--browser', browser, '--audit', path.join(dir, 'audit.jsonl')];

/**
 * The server's `oauth` settings for a scenario whose credentials a user would configure: the
 * suite hands them over in MCP_CONFORMANCE_CONTEXT (the CIMD scenario expects its fixed URL).
 * @param {string} name @param {Record<string, string>} context
 */
function oauthSettings(name, context) {
  const secret = (/** @type {string} */ key, /** @type {string} */ value) => ((secretEnv[key] = value), `\${env:${key}}`);
  switch (name) {
    case 'auth/basic-cimd':
      return { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
    case 'auth/pre-registration':
      return { clientId: context.client_id, clientSecret: secret('CONFORMANCE_CLIENT_SECRET', context.client_secret) };
    case 'auth/client-credentials-basic':
      return { grant: 'client_credentials', clientId: context.client_id, clientSecret: secret('CONFORMANCE_CLIENT_SECRET', context.client_secret) };
    case 'auth/client-credentials-jwt': {
      const keyFile = path.join(dir, 'client-key.pem');
      fs.writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
      return { grant: 'client_credentials', clientId: context.client_id, privateKeyFile: keyFile, signingAlgorithm: context.signing_algorithm };
    }
    case 'auth/enterprise-managed-authorization': // cross-app access (SEP-990), auth/cross-app-access-complete-flow before 0.2
      return {
        grant: 'cross_app_access',
        clientId: context.client_id,
        clientSecret: secret('CONFORMANCE_CLIENT_SECRET', context.client_secret),
        idp: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: secret('CONFORMANCE_ID_TOKEN', context.idp_id_token) },
      };
    case 'auth/wif-jwt-bearer': { // workload identity federation (SEP-1933): the platform's token, in a file as a platform mounts it
      const tokenFile = path.join(dir, 'workload-token.jwt');
      fs.writeFileSync(tokenFile, context.valid_jwt, { mode: 0o600 });
      return { grant: 'jwt_bearer', clientId: context.client_id, assertionFile: tokenFile };
    }
    default:
      return undefined;
  }
}

/** Runs the CLI with `args`, prints what it said (the suite keeps it), returns its result. @param {string[]} args */
function cli(args) {
  const run = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), ...args, ...flags], { encoding: 'utf8', timeout: 25_000, env: { ...process.env, ...secretEnv, XDG_STATE_HOME: dir } });
  console.log(`$ mcp-tool-host ${args.join(' ')}: exit ${run.status ?? run.signal}`);
  if (run.stdout) console.log(run.stdout.trimEnd());
  if (run.stderr) console.error(run.stderr.trimEnd());
  return run;
}

/** The tools in `tools --json` output. @param {string} stdout @returns {ListedTool[]} */
function listedTools(stdout) {
  try {
    const listed = /** @type {{ tools?: ListedTool[] }[] | { tools?: ListedTool[] }} */ (JSON.parse(stdout));
    return (Array.isArray(listed) ? listed : [listed]).flatMap((s) => s.tools ?? []);
  } catch {
    return [];
  }
}

/**
 * Scenarios that count every authorization request: the CLI keeps tokens for one run only, so a
 * second run would sign in again and count as one more. One `call` starts the server, lists its
 * tools and calls, as a user's single command does.
 */
const ONE_RUN = new Set(['auth/scope-step-up', 'auth/scope-retry-limit']);

/**
 * The skills scenarios (SEP-2640) as a user of the CLI meets them: `skills` lists a server's skills
 * (reading none of their files); the verification ones then load the skill with `skill`, which
 * must refuse a SKILL.md that fails its check (exit 4) and read nothing more.
 */
const SKILLS = { 'sep-2640-client-no-prefetch': false, 'sep-2640-client-verify-digest': true, 'sep-2640-client-verify-size': true, 'sep-2640-client-verify-frontmatter': true };

/** Lists the tools, then makes the scenario's calls; the exit code of the listing, else of the first call that failed. */
function drive() {
  if (ONE_RUN.has(scenario)) return cli(['call', 's', 'test-tool', '--args', '{}']).status ?? 4;
  if (scenario in SKILLS) {
    const listed = cli(['skills', 's']);
    if (!SKILLS[/** @type {keyof typeof SKILLS} */ (scenario)] || listed.status !== 0) return listed.status ?? 4;
    const names = /** @type {{ skills?: { name: string }[] }[]} */ (JSON.parse(listed.stdout || '[]'))[0]?.skills?.map((s) => s.name) ?? [];
    return cli(['skill', 's', names[0] ?? 'none']).status ?? 4;
  }
  const list = cli(['tools', 's']);
  const tools = listedTools(list.stdout);
  const wanted = CALLS[scenario] ?? [[String(tools[0]?.name ?? 'test-tool'), {}]];
  const calls = contextCalls ?? (typeof wanted === 'function' ? wanted(tools) : wanted);
  if (calls.length === 0) return list.status ?? 4;
  const statuses = calls.map(([name, args]) => cli(['call', 's', name, '--args', JSON.stringify(args)]).status ?? 4);
  return statuses.find((s) => s !== 0) ?? 0;
}

try {
  process.exitCode = drive();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
