// The client the official MCP conformance suite (@modelcontextprotocol/conformance) drives: our
// headless CLI, dist/cli.js, run ONCE per scenario, as a user runs it: one command, with a config
// file, flags and a --browser program a user would write (issue 32). The suite starts a test
// server, then runs this script with the server's URL as the last argument and the scenario's name
// in MCP_CONFORMANCE_SCENARIO (some scenarios add credentials, or the calls they want, in
// MCP_CONFORMANCE_CONTEXT). The command is the one a user would type for what the scenario is
// about: `call` a tool (which starts the server and lists its tools first), `tools` when listing
// is all it asks, `skills` or `skill`. A scenario that needs several commands against one client
// (several calls, a call whose arguments come from the listing) gets one `session` process, whose
// stdin receives each command as a user would type it, the next once the last one answered (with
// --json, one line each). Nothing carries over from another run. Exit code: the CLI's.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';

/** @typedef {[string, Record<string, unknown>]} Call */

/**
 * The tool each scenario is about, with its arguments, or null when listing the tools is all it
 * asks. Others call `test-tool` (the tool of the auth scenarios' servers). A scenario that names
 * its calls in MCP_CONFORMANCE_CONTEXT (`toolCalls`) gets the first of them.
 * @type {Record<string, Call | null>}
 */
const CALLS = {
  initialize: null,
  tools_call: ['add_numbers', { a: 5, b: 3 }],
  'elicitation-sep1034-client-defaults': ['test_client_elicitation_defaults', {}],
  'sse-retry': ['test_reconnection', {}],
  // Its server has no tools: its checks are on the _meta and headers of every request.
  'request-metadata': null,
  // Its checks are on the headers of the requests a call makes.
  'http-standard-headers': ['test_headers', {}],
  // The tool whose x-mcp-header is valid; the others must not even be listed.
  'http-invalid-tool-headers': ['valid_tool', { region: 'us-west1' }],
  // Its server answers tools/list only: what it checks is that listing fetched no network $ref.
  'json-schema-ref-no-deref': null,
};

/** @typedef {(said: unknown) => string | undefined} Step The next line a user types, given what the last command printed (undefined: done). */

/**
 * The scenarios that need one session of several commands, each typed once the last one answered.
 * @type {Record<string, () => Step[]>}
 */
const SESSIONS = {
  // It wants the focal tool's inputSchema, as listed, handed back to its echo tool: a user lists the tools, reads it, and calls.
  'json-schema-2020-12-preservation': () => [
    () => 'tools s',
    (listed) => {
      const tools = /** @type {{ tools: { name: string, inputSchema: unknown }[] }[]} */ (listed)[0]?.tools ?? [];
      const focal = tools.find((t) => t.name !== 'json_schema_echo');
      return focal && `call s json_schema_echo ${JSON.stringify({ schema: focal.inputSchema })}`;
    },
  ],
  // Each of its four tools checks one rule of input_required rounds (a form answered with its defaults).
  'sep-2322-client-request-state': () => ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type'].map((tool) => () => `call s ${tool}`),
};

/**
 * The skills scenarios (SEP-2640) as a user of the CLI meets them: `skills` lists a server's skills
 * (reading none of their files); the verification ones load the skill by name with `skill`, which
 * lists the skills, then must refuse a SKILL.md that fails its check (exit 4) and read nothing more.
 */
const SKILLS = { 'sep-2640-client-no-prefetch': null, 'sep-2640-client-verify-digest': 'pdf-processing', 'sep-2640-client-verify-size': 'pdf-processing', 'sep-2640-client-verify-frontmatter': 'pdf-processing' };

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
/** @type {Call[]} The calls a scenario names in its context (`{ name, arguments }`), in order: several are one session's. */
const contextCalls = Array.isArray(context.toolCalls) ? context.toolCalls.map((/** @type {{ name: string, arguments?: Record<string, unknown> }} */ c) => [c.name, c.arguments ?? {}]) : [];
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

/** Runs the CLI once with `args`, prints what it said (the suite keeps it), returns its exit code. @param {string[]} args */
function cli(args) {
  const run = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), ...args, ...flags], { encoding: 'utf8', timeout: 25_000, env: { ...process.env, ...secretEnv, XDG_STATE_HOME: dir } });
  console.log(`$ mcp-tool-host ${args.join(' ')}: exit ${run.status ?? run.signal}`);
  if (run.stdout) console.log(run.stdout.trimEnd());
  if (run.stderr) console.error(run.stderr.trimEnd());
  return run.status ?? 4;
}

/**
 * Runs one `session` and types `steps` into it, each once the last command printed its line of
 * JSON; then `quit`. Prints what it said (the suite keeps it); returns its exit code.
 * @param {Step[]} steps @returns {Promise<number>}
 */
function session(steps) {
  const child = spawn(process.execPath, [path.join(root, 'dist/cli.js'), 'session', 's', ...flags], { env: { ...process.env, ...secretEnv, XDG_STATE_HOME: dir }, stdio: ['pipe', 'pipe', 'inherit'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  const left = [...steps];
  const type = (/** @type {unknown} */ said) => {
    const line = left.shift()?.(said);
    console.log(`> ${line ?? 'quit'}`);
    child.stdin.write(`${line ?? 'quit'}\n`);
    if (line === undefined) child.stdin.end();
  };
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
    buffer += text;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      console.log(line);
      let said;
      try {
        said = JSON.parse(line);
      } catch {
        said = undefined;
      }
      if (!child.stdin.writableEnded) type(said);
    }
  });
  type(undefined);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      console.log(`$ mcp-tool-host session s: exit ${code ?? signal}`);
      resolve(code ?? 4);
    });
  });
}

/** The one command a user would type for this scenario. @returns {string[]} */
function command() {
  if (scenario in SKILLS) {
    const skill = SKILLS[/** @type {keyof typeof SKILLS} */ (scenario)];
    return skill === null ? ['skills', 's'] : ['skill', 's', skill];
  }
  const call = contextCalls[0] ?? (scenario in CALLS ? CALLS[scenario] : ['test-tool', {}]);
  return call === null ? ['tools', 's'] : ['call', 's', call[0], '--args', JSON.stringify(call[1])];
}

/** The session's steps when this scenario needs several commands in one client, else undefined. @returns {Step[] | undefined} */
function sessionSteps() {
  if (scenario in SESSIONS) return SESSIONS[scenario]();
  if (contextCalls.length > 1) return contextCalls.map(([tool, args]) => () => `call s ${tool} ${JSON.stringify(args)}`);
  return undefined;
}

try {
  const steps = sessionSteps();
  process.exitCode = steps ? await session(steps) : cli(command());
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
