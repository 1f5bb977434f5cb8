import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { isSignInError } from '../../src/core/auth/signInMark';
import { ServerFailure } from '../../src/core/connection/serverFailures';
import { loadApps, loadCsp } from '../../src/core/apps/load';
import type * as Csp from '../../src/core/apps/links';
import type * as Auth from '../../src/core/auth/later';
import { loadAuth } from '../../src/core/auth/load';
import { loadConfigOptions } from '../../src/core/config/load';
import { loadCalls } from '../../src/core/calls/load';
import { loadConnection } from '../../src/core/connection/load';
import type * as Links from '../../src/core/elicitation/links';
import { loadElicitation, loadLinks } from '../../src/core/elicitation/load';
import type * as Jsonc from '../../src/core/packages/jsonc';
import type * as Sdk from '../../src/core/packages/later';
import { loadJsonc, loadSdk } from '../../src/core/packages/load';
import type * as Search from '../../src/core/search/later';
import { loadSearch } from '../../src/core/search/load';
import { loadTools } from '../../src/core/tools/load';
import { loadTransport } from '../../src/core/transport/load';
import { ROOT } from './helpers';

/** ARCHITECTURE.md "Limits": the code loaded at activation. */
const ACTIVATION_BUDGET_BYTES = 150 * 1024;

/** Each export's name and kind ("function", "object"...), to compare a bundle with the module it was built from. */
const shape = (module: object) => Object.fromEntries(Object.entries(module).map(([name, value]) => [name, typeof value]));
/** The shapes of the doors one bundle holds, side by side; fails when two doors share a name (the bundle would hold one of them). */
function doorsShape(...doors: object[]): Record<string, string> {
  const names = doors.flatMap((door) => Object.keys(door));
  assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), [], 'two doors of one bundle export the same name');
  return Object.assign({}, ...doors.map(shape)) as Record<string, string>;
}

/** An OAuth authorization server whose token endpoint refuses every code with `invalid_grant`. */
function refusingAuthServer(): Promise<{ url: URL; close(): void }> {
  const server = http.createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.end(JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] }));
    } else if (req.url === '/token') {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'the code expired' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), close: () => server.close() })),
  );
}

/** A registered client with nothing saved: enough for the SDK to redeem a code. */
const provider: OAuthClientProvider = {
  redirectUrl: 'http://127.0.0.1:9/callback',
  clientMetadata: { redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'lazy seam test' },
  clientInformation: () => ({ client_id: 'test' }),
  tokens: () => undefined,
  saveTokens: () => undefined,
  redirectToAuthorization: () => undefined,
  saveCodeVerifier: () => undefined,
  codeVerifier: () => 'v'.repeat(43),
  invalidateCredentials: () => undefined,
};

describe('the lazy seam (each core folder\'s load.ts and doors, esbuild.mjs): production bundles built into a temporary folder', function () {
  this.timeout(120_000);
  let dist: string;
  let core: typeof Sdk;
  let jsonc: typeof Jsonc;

  before(() => {
    dist = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-seam-')), 'dist');
    execFileSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', dist], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    core = require(path.join(dist, 'core.js')) as typeof Sdk;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    jsonc = require(path.join(dist, 'jsonc.js')) as typeof Jsonc;
  });

  after(() => fs.rmSync(path.dirname(dist), { recursive: true, force: true }));

  it('dist/extension.js holds no package', () => {
    const map = JSON.parse(fs.readFileSync(path.join(dist, 'extension.js.map'), 'utf8')) as { sources: string[] };
    assert.deepEqual(map.sources.filter((s) => s.includes('node_modules/')), []);
    assert.ok(map.sources.some((s) => s.endsWith('src/core/packages/load.ts')), 'the loader is in the activation bundle');
  });

  it('dist/extension.js fits the activation budget (150 KB)', () => {
    const bytes = fs.statSync(path.join(dist, 'extension.js')).size;
    assert.ok(bytes <= ACTIVATION_BUDGET_BYTES, `dist/extension.js is ${bytes} bytes, over the ${ACTIVATION_BUDGET_BYTES}-byte activation budget: load more on first use (ARCHITECTURE.md "Limits")`);
  });

  it('dist/extension.js requires the lazy bundles by their file names', () => {
    const code = fs.readFileSync(path.join(dist, 'extension.js'), 'utf8');
    assert.match(code, /require\("\.\/core\.js"\)/);
    assert.match(code, /require\("\.\/jsonc\.js"\)/);
    assert.match(code, /require\("\.\/chat\.js"\)/);
    assert.match(code, /require\("\.\/forms\.js"\)/);
    assert.match(code, /require\("\.\/auth\.js"\)/);
    assert.match(code, /require\("\.\/session\.js"\)/);
    assert.match(code, /require\("\.\/calls\.js"\)/);
    assert.doesNotMatch(code, /require\("\.\/(later|links|jsonc|chat|forms|sessionRuntime)"\)/);
    // The link check is loaded by what may open a link: the session's prompts, the forms, the sign-in.
    for (const bundle of ['session.js', 'forms.js', 'auth.js']) assert.match(fs.readFileSync(path.join(dist, bundle), 'utf8'), /require\("\.\/links\.js"\)/, bundle);
  });

  it('the package ships every bundle the build makes (a lazy bundle left out fails on first use)', () => {
    const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n').filter((l) => l.startsWith('!dist/')).map((l) => l.slice('!dist/'.length));
    const built = fs.readdirSync(dist).filter((f) => f.endsWith('.js'));
    assert.deepEqual(built.filter((f) => !shipped.includes(f)), []);
  });

  it('the argument prompts are in dist/forms.js, and the chat bundle reaches the SDK through dist/core.js', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    assert.ok(!sources('extension.js').some((s) => s.endsWith('src/vscode/calls/argumentFlow.ts')), 'the field flow loads with the first call that asks');
    assert.ok(sources('forms.js').some((s) => s.endsWith('src/vscode/calls/argumentFlow.ts')));
    for (const lazy of ['chat.js', 'forms.js']) assert.deepEqual(sources(lazy).filter((s) => s.includes('node_modules/')), [], `${lazy} holds no package`);
  });

  it('the commands\' bodies that activation does not need are in dist/forms.js, not in the activation bundle', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    const atActivation = sources('extension.js');
    const forms = sources('forms.js');
    const moved = [
      'src/vscode/servers/addServerCommand.ts', 'src/vscode/servers/addServerWizard.ts', 'src/core/config/newServerEntry.ts', // Add Server
      'src/vscode/servers/importServers.ts', // Import Servers
      'src/vscode/servers/serverLocation.ts', // Open Configuration
      'src/vscode/approvals/approvalActions.ts', // Manage and Reset Approvals
      'src/vscode/auth/signOutCommand.ts', // Sign Out
      'src/vscode/calls/schemaPick.ts', // Show Tool Schema's pick
    ];
    for (const file of moved) {
      assert.ok(!atActivation.some((s) => s.endsWith(file)), `${file} loads at first use, not at activation`);
      assert.ok(forms.some((s) => s.endsWith(file)), `${file} is in dist/forms.js`);
    }
    // Their commands still register at activation, and what both bundles hold is copied, so it must be stateless.
    assert.ok(atActivation.some((s) => s.endsWith('src/vscode/servers/viewCommands.ts')) && atActivation.some((s) => s.endsWith('src/vscode/approvals/approvalCommands.ts')));
    for (const shared of forms.filter((s) => atActivation.includes(s))) {
      const source = fs.readFileSync(path.join(ROOT, shared.slice(shared.indexOf('src/'))), 'utf8');
      assert.doesNotMatch(source, /^\s*(export\s+)?class\s|^(export\s+)?let\s/m, `${shared} is in both bundles but holds a class or module state`);
    }
  });

  it('the chat participant\'s request handling is in dist/chat.js, not in the activation bundle', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    const atActivation = sources('extension.js');
    assert.ok(!atActivation.some((s) => s.endsWith('src/vscode/chat/toolLoop.ts')), 'the tool loop loads with the first request');
    assert.ok(atActivation.some((s) => s.endsWith('src/vscode/chat/chatParticipant.ts')), 'the participant registers at activation');
    const chat = sources('chat.js');
    assert.ok(chat.some((s) => s.endsWith('src/vscode/chat/toolLoop.ts')));
    // What both hold is copied, so it must be stateless: the build checks it, and so does this.
    for (const shared of chat.filter((s) => atActivation.includes(s))) {
      const source = fs.readFileSync(path.join(ROOT, shared.slice(shared.indexOf('src/'))), 'utf8');
      assert.doesNotMatch(source, /^\s*(export\s+)?class\s|^(export\s+)?let\s/m, `${shared} is in both bundles but holds a class or module state`);
    }
  });

  it('the call pipeline past validation (approval, the call, its task, errors, the audit record) is in dist/calls.js, not in the activation bundle', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    const atActivation = sources('extension.js');
    const calls = sources('calls.js');
    const moved = ['callRunner', 'approvalStep', 'taskFollowUp', 'callErrors', 'readApproval', 'callSummary', 'auditHash'].map((m) => `src/core/calls/${m}.ts`);
    for (const file of moved) {
      assert.ok(!atActivation.some((s) => s.endsWith(file)), `${file} loads with the first call, not at activation`);
      assert.ok(calls.some((s) => s.endsWith(file)), `${file} is in dist/calls.js`);
    }
    // Activation builds the pipeline; what holds state or a class (the pipeline, its counters, the progress coalescer) stays there, lent to the runner.
    for (const file of ['callPipeline', 'progressCoalescer'].map((m) => `src/core/calls/${m}.ts`)) {
      assert.ok(atActivation.some((s) => s.endsWith(file)), `${file} is in dist/extension.js`);
      assert.ok(!calls.some((s) => s.endsWith(file)), `${file} is not copied into dist/calls.js`);
    }
    assert.deepEqual(calls.filter((s) => s.includes('node_modules/')), [], 'dist/calls.js holds no package');
    for (const shared of calls.filter((s) => atActivation.includes(s))) {
      const source = fs.readFileSync(path.join(ROOT, shared.slice(shared.indexOf('src/'))), 'utf8');
      assert.doesNotMatch(source, /^\s*(export\s+)?class\s|^(export\s+)?let\s/m, `${shared} is in both bundles but holds a class or module state`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    assert.deepEqual(shape(require(path.join(dist, 'calls.js')) as object), shape(loadCalls()));
  });

  it('OAuth sign-in is in dist/auth.js, not in the activation bundle, and reaches the SDK through dist/core.js', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    const atActivation = sources('extension.js');
    const auth = sources('auth.js');
    const moved = ['oauthSignIn', 'oauthProvider', 'machineProviders', 'serverCredentials', 'signInErrors', 'loopbackReceiver', 'jwtBearerProvider', 'dpopKeys'].map((m) => `src/core/auth/${m}.ts`);
    for (const file of moved) {
      assert.ok(!atActivation.some((s) => s.endsWith(file)), `${file} loads with the first remote server, not at activation`);
      assert.ok(auth.some((s) => s.endsWith(file)), `${file} is in dist/auth.js`);
    }
    assert.ok(atActivation.some((s) => s.endsWith('src/core/auth/signInMark.ts')), 'the connection tells a SignInError without loading dist/auth.js');
    assert.deepEqual(auth.filter((s) => s.includes('node_modules/')), [], 'dist/auth.js holds no package');
    assert.match(fs.readFileSync(path.join(dist, 'auth.js'), 'utf8'), /require\("\.\/core\.js"\)/);
    // What both hold is copied, so it must be stateless: the build checks it, and so does this.
    for (const shared of auth.filter((s) => atActivation.includes(s))) {
      const source = fs.readFileSync(path.join(ROOT, shared.slice(shared.indexOf('src/'))), 'utf8');
      assert.doesNotMatch(source, /^\s*(export\s+)?class\s|^(export\s+)?let\s/m, `${shared} is in both bundles but holds a class or module state`);
    }
  });

  it('a SignInError made by dist/auth.js is told by another copy of isSignInError(), and its message reaches the user as it is', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const auth = require(path.join(dist, 'auth.js')) as typeof Auth;
    const err = new auth.SignInError('Signing in to "x" was cancelled.');
    assert.ok(isSignInError(err));
    assert.equal(ServerFailure.start(err, { stderr: [] }, 'https://x.test/mcp').message, 'Signing in to "x" was cancelled.');
    assert.ok(!isSignInError(Object.assign(new Error('not one'), { name: 'SignInError', signInError: true })), 'a name or a plain property is not the mark');
    assert.deepEqual(shape(auth), shape(loadAuth()));
  });

  it('dist/auth.js reaches the SDK through the dist/core.js the extension loads: one set of classes', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const auth = require(path.join(dist, 'auth.js')) as typeof Auth;
    const store = new Map<string, string>();
    const host = { secrets: { get: async (k: string) => store.get(k), store: async (k: string, v: string) => void store.set(k, v), delete: async (k: string) => void store.delete(k) }, openBrowser: async () => false };
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined };
    const signIn = await auth.OAuthSignIn.prepare('s', 'https://x.test/mcp', {}, { grant: 'client_credentials', clientId: 'c', clientSecret: 'k' }, host, log);
    assert.ok(signIn?.provider instanceof core.ClientCredentialsProvider, 'the provider is a class of the loaded dist/core.js, not of a copy');
    signIn.dispose();
  });

  it('the link check, the CSP screening of tool interfaces and the Public Suffix List (issue 31) are in dist/links.js, in no other bundle, and work from there', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    for (const file of ['src/core/elicitation/linkCheck.ts', 'src/core/apps/cspOrigins.ts', 'node_modules/tldts/', 'node_modules/tldts-core/']) {
      assert.ok(sources('links.js').some((s) => s.includes(file)), `${file} is in dist/links.js`);
      for (const other of ['extension.js', 'chat.js', 'forms.js', 'core.js', 'search.js']) assert.ok(!sources(other).some((s) => s.includes(file)), `${file} is not in dist/${other}`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundle = require(path.join(dist, 'links.js')) as typeof Links & typeof Csp;
    assert.deepEqual(shape(bundle), doorsShape(loadLinks(), loadCsp()));
    const padded = bundle.checkUrl('https://login.microsoftonline.com.secure.evil.xyz/');
    assert.equal(padded.kind === 'offered' && padded.site, 'evil.xyz');
    // The CSP screening of tool interfaces reads the same list, from the same bundle.
    const screened = bundle.screenCsp({ connectDomains: ['https://*.co.uk', 'https://*.example.co.uk'], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, { kind: 'this-machine' });
    assert.deepEqual(screened.csp.connectDomains, ['https://*.example.co.uk']);
    assert.deepEqual(screened.refused.map((r) => r.origin), ['https://*.co.uk']);
  });

  it('tool search and token counts (issue 19) are in dist/search.js with minisearch and the tokenizer, in no other bundle, and work from there', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    const search = sources('search.js');
    for (const file of ['src/core/search/toolSearch.ts', 'src/core/search/toolTokens.ts', 'node_modules/minisearch/', 'node_modules/gpt-tokenizer/']) {
      assert.ok(search.some((s) => s.includes(file)), `${file} is in dist/search.js`);
      for (const other of ['extension.js', 'chat.js', 'forms.js', 'core.js']) assert.ok(!sources(other).some((s) => s.includes(file)), `${file} is not in dist/${other}`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundle = require(path.join(dist, 'search.js')) as typeof Search;
    assert.deepEqual(shape(bundle), shape(loadSearch()));
    const index = new bundle.ToolIndex([{ server: 's', tool: 'take_screenshot', definition: { name: 'take_screenshot', inputSchema: { type: 'object' } } }]);
    assert.equal(index.search('screenshot')[0]?.tool, 'take_screenshot');
    assert.equal(bundle.textTokens('hello world'), 2);
  });

  it('the SDK client of a session and its era clients are in dist/session.js, not in the activation bundle, and reach the SDK through dist/core.js', () => {
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, ''));
    for (const file of ['src/core/connection/sdkClient.ts', 'src/core/connection/era2025Client.ts', 'src/core/connection/era2026Client.ts', 'src/core/connection/taskCalls.ts', 'src/core/connection/inputRounds.ts']) {
      assert.ok(sources('session.js').some((s) => s.endsWith(file)), `${file} is in dist/session.js`);
      assert.ok(!sources('extension.js').some((s) => s.endsWith(file)), `${file} is not in dist/extension.js`);
    }
    assert.ok(!sources('session.js').some((s) => s.includes('node_modules/@modelcontextprotocol/')), 'no copy of the SDK in dist/session.js');
  });

  it('every module a core door exports is in the bundle that holds the door (eslint/lazyDoors.mjs), not in dist/extension.js', async () => {
    const { coreDoors } = (await import(pathToFileURL(path.join(ROOT, 'eslint/lazyDoors.mjs')).href)) as { coreDoors(root: string): { door: string; file: string; modules: string[] }[] };
    const sources = (file: string) => (JSON.parse(fs.readFileSync(path.join(dist, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
    const atActivation = sources('extension.js');
    const doors = coreDoors(ROOT);
    assert.ok(doors.length >= 12, 'the doors are read');
    for (const { door, file, modules } of doors) {
      for (const module of modules.map((m) => `src/core/${m}.ts`)) {
        assert.ok(sources(file).some((s) => s.endsWith(module)), `${module} (${door}) is in dist/${file}`);
        assert.ok(!atActivation.some((s) => s.endsWith(module)), `${module} (${door}) is not in dist/extension.js`);
      }
    }
  });

  it('the lazy bundles export what the doors give the tsc build: dist/core.js the session runtime\'s doors side by side, dist/jsonc.js loadJsonc()', () => {
    assert.deepEqual(shape(core), doorsShape(loadSdk(), loadTransport(), loadConnection(), loadTools(), loadConfigOptions(), loadElicitation(), loadApps()));
    assert.deepEqual(shape(jsonc), shape(loadJsonc()));
    assert.ok(Object.values(core).every((value) => typeof value === 'function'));
  });

  it('ajv from dist/core.js compiles with formats', () => {
    const ajv = new core.Ajv2020({ strict: false });
    core.addFormats(ajv);
    const check = ajv.compile({ type: 'string', format: 'email' });
    assert.equal(check('a@example.com'), true);
    assert.equal(check('not an address'), false);
  });

  it('an OAuthError the SDK throws inside dist/core.js is instanceof the OAuthError it exports', async () => {
    const server = await refusingAuthServer();
    const warn = console.warn;
    console.warn = () => undefined; // the SDK's advice for a provider without discovery state
    try {
      const transport = new core.StreamableHTTPClientTransport(server.url, { authProvider: provider });
      const err = await transport.finishAuth(new URLSearchParams({ code: 'expired' })).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof core.OAuthError, `the SDK threw ${String(err)}`);
      assert.equal(err.code, 'invalid_grant');
    } finally {
      console.warn = warn;
      server.close();
    }
  });

  it('jsonc-parser from dist/jsonc.js parses comments and trailing commas', () => {
    assert.deepEqual(jsonc.parse('{ "a": 1, // note\n }', [], { allowTrailingComma: true }), { a: 1 });
  });
});
