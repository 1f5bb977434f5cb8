import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ServerState } from '../../src/core/connection/serverState';
import { piecesOf } from '../../src/core/textPieces';
import { alive, FIXTURES, makeHost, node, until, workspaceRoots, type HostOptions } from './helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long these tests wait for a fixture's side effect (well under the test's own timeout). */
const WAIT_MS = 3000;

/** Rejects when `p` takes longer than `ms`: a hang fails the test with a clear reason, not mocha's timeout. */
async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const fixture = (file: string, extra: Record<string, unknown> = {}) => node(path.join(FIXTURES, file), extra);
const errorOf = (state: ServerState) => (state.kind === 'error' ? state : assert.fail(`expected error state, got ${JSON.stringify(state)}`));

describe('the zoo: misbehaving servers through the real core (real child processes)', function () {
  this.timeout(10_000);
  const hosts: ReturnType<typeof makeHost>[] = [];
  /** A host with one server named `name`; closed after the test. */
  const host = (name: string, def: Record<string, unknown>, options: HostOptions = {}) => {
    const h = makeHost({ [name]: def }, 'deny', options);
    hosts.push(h);
    return { ...h, connection: h.pool.get(name)! };
  };
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  describe('starting', () => {
    it('a server that takes 1.5 s to answer initialize ends running', async () => {
      const h = host('slow', fixture('slow-start.cjs'));
      const states: string[] = [];
      h.connection.onDidChangeState((s) => states.push(s.kind));
      const started = Date.now();
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      assert.ok(Date.now() - started >= 1400, 'the fixture really waited');
      assert.deepEqual(states, ['starting', 'running']);
      assert.deepEqual(h.connection.tools.map((t) => t.name), ['ping']);
      const outcome = await h.pipeline.call({ server: 'slow', tool: 'ping', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && outcome.result.text === 'pong', JSON.stringify(outcome));
    });

    it('a server that never answers initialize fails after handshakeTimeoutMs, quoting its last stderr line, and is killed', async () => {
      const h = host('hang', fixture('hang-at-initialize.cjs'), { handshakeTimeoutMs: 1000 });
      const started = Date.now();
      await h.connection.start();
      const elapsed = Date.now() - started;
      const state = errorOf(h.connection.state);
      assert.match(state.message, /did not answer "initialize" within 1 s/);
      assert.match(state.message, /Last stderr: waiting for database\.\.\.$/);
      assert.ok(state.detail?.includes('waiting for database...'), JSON.stringify(state.detail));
      assert.ok(elapsed >= 950 && elapsed < 4500, `gave up after ${elapsed} ms`);
      assert.ok(h.logs.some((l) => l.startsWith('hang error The server did not answer "initialize" within 1 s')), h.logs.join('\n'));
      // the stuck process (it ignores stdin closing) is gone once start() returns
      const pid = Number(/hang fixture pid (\d+)/.exec(h.logs.join('\n'))?.[1]);
      assert.ok(pid > 0, 'the fixture reported its pid');
      await until(`pid ${pid} to be gone`, () => !alive(pid), 1000);
    });

    it('a server that does not declare the tools capability runs with no tools, a warning, and no tools/list request', async () => {
      const h = host('notools', fixture('no-tools-capability.cjs'));
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      assert.deepEqual(h.connection.tools, []);
      assert.ok(h.logs.includes('notools warn The server does not declare the "tools" capability; it offers no tools.'), h.logs.join('\n'));
      // the fixture logs every message it gets; give a tools/list the time to show up if one were sent
      await until('the fixture to log notifications/initialized', () => h.logs.includes('notools stderr got notifications/initialized'), WAIT_MS);
      await sleep(200);
      assert.ok(h.logs.includes('notools stderr got initialize'));
      assert.ok(!h.logs.some((l) => l.includes('got tools/list')), 'tools/list must not be sent to a server without the capability');
      const outcome = await h.pipeline.call({ server: 'notools', tool: 'anything', args: {}, origin: 'api' });
      assert.deepEqual(outcome, { kind: 'failed', message: 'Server "notools" has no tool named "anything".' });
    });
  });

  describe('protocol versions', () => {
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      it(`a server answering initialize with ${version} lists and calls`, async () => {
        const h = host('v', fixture('protocol-version.cjs', { env: { PROTOCOL_VERSION: version } }));
        await h.connection.start();
        const state = h.connection.state;
        assert.equal(state.kind, 'running', JSON.stringify(state));
        assert.equal(state.kind === 'running' && state.protocolVersion, version);
        assert.deepEqual(h.connection.tools.map((t) => t.name), ['version']);
        const outcome = await h.pipeline.call({ server: 'v', tool: 'version', args: {}, origin: 'api' });
        assert.ok(outcome.kind === 'ok' && outcome.result.text === `spoken: ${version}`, JSON.stringify(outcome));
      });
    }

    it('a server answering with an unsupported version (1999-01-01) ends in error, naming the version', async () => {
      const h = host('v', fixture('protocol-version.cjs', { env: { PROTOCOL_VERSION: '1999-01-01' } }));
      await h.connection.start();
      const state = errorOf(h.connection.state);
      // The SDK throws `Server's protocol version is not supported: 1999-01-01` (and closes the transport).
      assert.equal(state.message, "The MCP handshake failed: Server's protocol version is not supported: 1999-01-01");
      assert.deepEqual(h.connection.tools, []);
    });

    // The SDK's CallToolResult schema defaults `content` to [] and keeps `toolResult`, so client.callTool() returns
    // { content: [], toolResult: {...} }: renderResult must not take the empty content for "no content".
    it('a 2024-10-07 draft server whose tools/call answers { toolResult } shows the JSON', async () => {
      const h = host('draft', fixture('draft-tool-result.cjs'));
      await h.connection.start();
      const state = h.connection.state;
      assert.ok(state.kind === 'running' && state.protocolVersion === '2024-10-07', JSON.stringify(state));
      const outcome = await h.pipeline.call({ server: 'draft', tool: 'forecast', args: {}, origin: 'api' });
      assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
      if (outcome.kind === 'ok') assert.equal(outcome.result.text, JSON.stringify({ city: 'Lisbon', temperatureC: 21.5, sunny: true }, null, 2));
    });
  });

  describe('during a session', () => {
    it('a server that exits (code 7) mid-call fails that call promptly and ends in error', async () => {
      const h = host('crash', fixture('crash-mid-call.cjs'));
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      const outcome = await within(3000, 'the call to a crashing server', h.pipeline.call({ server: 'crash', tool: 'explode', args: {}, origin: 'api' }));
      assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
      if (outcome.kind === 'failed') assert.match(outcome.message, /connection closed|exited/i);
      await until('the error state', () => h.connection.state.kind === 'error', WAIT_MS);
      const state = errorOf(h.connection.state);
      assert.match(state.message, /exited with code 7/);
      assert.ok(state.detail?.includes('handler crashed: out of memory'), JSON.stringify(state.detail));
      assert.ok(h.logs.includes('crash error The server exited with code 7.'), h.logs.join('\n'));
      const again = await h.pipeline.call({ server: 'crash', tool: 'explode', args: {}, origin: 'api' });
      assert.ok(again.kind === 'failed' && /^Server "crash" is not running/.test(again.message), JSON.stringify(again));
    });

    it('a call whose server exits mid-call says the server exited with code 7', async () => {
      const h = host('crash', fixture('crash-mid-call.cjs'));
      await h.connection.start();
      const outcome = await within(3000, 'the call to a crashing server', h.pipeline.call({ server: 'crash', tool: 'explode', args: {}, origin: 'api' }));
      assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
      if (outcome.kind === 'failed') assert.match(outcome.message, /exited with code 7/);
    });

    it('notifications/message at debug, warning and error reach the log as info, warn and error', async () => {
      const h = host('log', fixture('log-levels.cjs'));
      await h.connection.start();
      const outcome = await h.pipeline.call({ server: 'log', tool: 'chatty', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && outcome.result.text === 'logged', JSON.stringify(outcome));
      // sent before the result, so already logged when the call returns
      const mcpLines = h.logs.filter((l) => /^log \w+ \[/.test(l));
      assert.deepEqual(mcpLines, [
        'log info [debug] db: connection pool ready',
        'log warn [warning] cache is cold',
        'log error [error] {"code":"E42","detail":"disk almost full"}',
      ]);
    });

    it('the host answers roots/list with the workspace folder', async () => {
      const h = host('roots', fixture('roots-echo.cjs'), { roots: workspaceRoots });
      await h.connection.start();
      await until('the declared capabilities', () => h.logs.some((l) => l.includes('client capabilities: {"roots":{"listChanged":true}}')), WAIT_MS);
      const outcome = await h.pipeline.call({ server: 'roots', tool: 'show_roots', args: {}, origin: 'api' });
      assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
      if (outcome.kind === 'ok') assert.deepEqual(JSON.parse(outcome.result.text), { roots: [{ uri: workspaceRoots()[0].uri, name: 'root' }] });
      assert.match(workspaceRoots()[0].uri, /^file:\/\/\//);
    });

    it('a server started with a folder keeps it: no roots offered, and its log says why; "roots" overrides', async () => {
      const withFolder = { ...fixture('roots-echo.cjs'), args: [...fixture('roots-echo.cjs').args, FIXTURES] };
      const kept = host('fs', withFolder, { rootsFromConfig: true });
      await kept.connection.start();
      await until('the declared capabilities', () => kept.logs.some((l) => l.includes('client capabilities: {}')), WAIT_MS);
      assert.ok(kept.logs.includes(`fs info Roots: not offered: the launch names ${FIXTURES}, which the workspace folders would replace (set "roots" to change)`), kept.logs.join('\n'));
      const refused = await kept.pipeline.call({ server: 'fs', tool: 'show_roots', args: {}, origin: 'api' });
      assert.equal(refused.kind, 'tool-error', 'roots/list is refused: the server keeps its own folder');
      const forced = host('fs2', { ...withFolder, roots: 'workspace' }, { rootsFromConfig: true });
      await forced.connection.start();
      const outcome = await forced.pipeline.call({ server: 'fs2', tool: 'show_roots', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && (JSON.parse(outcome.result.text) as { roots: unknown[] }).roots.length === 1, JSON.stringify(outcome));
      assert.equal(forced.connection.rootsWhy, 'the workspace folders ("roots": "workspace")');
    });

    it('a host without roots declares no roots capability and refuses roots/list', async () => {
      const h = host('roots', fixture('roots-echo.cjs'));
      await h.connection.start();
      await until('the declared capabilities', () => h.logs.some((l) => l.includes('client capabilities: {}')), WAIT_MS);
      const outcome = await h.pipeline.call({ server: 'roots', tool: 'show_roots', args: {}, origin: 'api' });
      assert.equal(outcome.kind, 'tool-error', JSON.stringify(outcome));
      if (outcome.kind === 'tool-error') assert.equal((JSON.parse(outcome.result.text) as { error: { code: number } }).error.code, -32601);
    });
  });

  describe('tool lists', () => {
    it('follows opaque cursors across three pages and lists every tool', async () => {
      const h = host('paged', fixture('paged-tools.cjs'));
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      assert.deepEqual(h.connection.tools.map((t) => t.name), ['alpha_1', 'alpha_2', 'beta_1', 'beta_2', 'gamma_1']);
      // each cursor went back byte for byte (spaces, quotes, backslash, %20, non-ASCII and JSON-looking ones);
      // stderr and stdout are separate pipes, so the fixture's last stderr line may trail the last page
      const listed = () => h.logs.filter((l) => l.startsWith('paged stderr tools/list'));
      await until('three tools/list lines on stderr', () => listed().length >= 3, WAIT_MS);
      assert.deepEqual(listed(), [
        'paged stderr tools/list cursor=undefined',
        `paged stderr tools/list cursor=${JSON.stringify(' eyJwYWdlIjoyfQ==/+?&#%20 ünï "quoted" \\ 2 ')}`,
        `paged stderr tools/list cursor=${JSON.stringify('{"page":3}')}`,
      ]);
      assert.ok(h.logs.includes('paged info 5 tools listed.'));
      const outcome = await h.pipeline.call({ server: 'paged', tool: 'gamma_1', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && outcome.result.text === 'called gamma_1', JSON.stringify(outcome));
    });

    it('gives up on endless pages after listMaxPages (64) with a logged error, without hanging the host', async () => {
      const h = host('endless', fixture('endless-pages.cjs'));
      const started = Date.now();
      await within(5000, 'start() against endless pages', h.connection.start());
      assert.ok(Date.now() - started < 4000);
      // What the user sees: the server runs, with no tools, and the reason is in its log.
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      assert.deepEqual(h.connection.tools, [], 'a partial list is not kept');
      assert.ok(h.logs.includes('endless error Listing tools failed: tools/list: exceeded listMaxPages (64); server pagination did not terminate'), h.logs.join('\n'));
      const requests = () => h.logs.filter((l) => l.startsWith('endless stderr tools/list request')).length;
      await until('64 tools/list requests on stderr', () => requests() >= 64, WAIT_MS);
      await sleep(100);
      assert.equal(requests(), 64, 'listMaxPages (64) requests, then no more');
      // the session is still usable: a refresh fails the same way, promptly
      await within(5000, 'refreshTools()', h.connection.refreshTools());
      assert.equal(h.logs.filter((l) => l.startsWith('endless error Listing tools failed')).length, 2);
      assert.equal(h.connection.state.kind, 'running');
    });

    it('a storm of 200 list_changed notifications re-lists a few times (debounced) and ends with the new tools', async () => {
      const h = host('storm', fixture('list-changed-storm.cjs'));
      await h.connection.start();
      assert.deepEqual(h.connection.tools.map((t) => t.name), ['stats', 'mutate']);
      let toolEvents = 0;
      h.connection.onDidChangeTools(() => toolEvents++);
      const mutated = await h.pipeline.call({ server: 'storm', tool: 'mutate', args: {}, origin: 'api' });
      assert.ok(mutated.kind === 'ok' && mutated.result.text === 'mutated', JSON.stringify(mutated));
      await until('the new tool list', () => h.connection.tools.some((t) => t.name === 'new_tool_a'), WAIT_MS);
      await sleep(800); // longer than the debounce (250 ms) several times over: any straggling re-list shows up
      assert.deepEqual(h.connection.tools.map((t) => t.name), ['stats', 'new_tool_a', 'new_tool_b']);
      const stats = await h.pipeline.call({ server: 'storm', tool: 'stats', args: {}, origin: 'api' });
      assert.equal(stats.kind, 'ok', JSON.stringify(stats));
      const { listRequests } = JSON.parse(stats.kind === 'ok' ? stats.result.text : '{}') as { listRequests: number };
      const relists = listRequests - 1; // the first one was at start
      assert.ok(relists >= 1 && relists <= 3, `200 notifications caused ${relists} re-lists`);
      assert.equal(toolEvents, relists);
    });
  });

  describe('message size', () => {
    it('a 70 MiB result fails that call only, naming the limit; the session goes on; 5 MiB arrives intact', async () => {
      const h = host('huge', fixture('huge-result.cjs'));
      await h.connection.start();
      const huge = await within(8000, 'the 70 MiB call', h.pipeline.call({ server: 'huge', tool: 'blob', args: { mib: 70 }, origin: 'api' }));
      assert.equal(huge.kind, 'failed', JSON.stringify(huge).slice(0, 500));
      if (huge.kind === 'failed') assert.match(huge.message, /^A message of 70\.0 MiB exceeded the 64\.0 MiB limit and was dropped \(raise the setting mcpToolHost\.maxMessageSize to accept it\)\.$/);
      assert.ok(h.logs.some((l) => /^huge warn A message of 70\.0 MiB exceeded the 64\.0 MiB limit/.test(l)));
      assert.equal(h.connection.state.kind, 'running');
      const small = await h.pipeline.call({ server: 'huge', tool: 'small', args: {}, origin: 'api' });
      assert.ok(small.kind === 'ok' && small.result.text === 'ok', JSON.stringify(small));
      const five = await h.pipeline.call({ server: 'huge', tool: 'blob', args: { mib: 5 }, origin: 'api' });
      assert.equal(five.kind, 'ok');
      if (five.kind === 'ok') {
        assert.equal(five.result.text.length, 5 * 1024 * 1024);
        assert.ok(five.result.text === '0123456789abcdef'.repeat((5 * 1024 * 1024) / 16), 'the 5 MiB text is intact');
      }
    });

    it('a 20 MiB result comes from the parser thread in pieces and reaches the sink in pieces of at most 1 MiB, intact, and whole as text', async () => {
      const h = host('huge', fixture('huge-result.cjs'));
      await h.connection.start();
      const outcome = await within(8000, 'the 20 MiB call', h.pipeline.call({ server: 'huge', tool: 'blob', args: { mib: 20 }, origin: 'api', keepRaw: true }));
      assert.equal(outcome.kind, 'ok');
      const block = outcome.kind === 'ok' ? (outcome.raw as { content: object[] } | undefined)?.content[0] : undefined;
      assert.ok(block && piecesOf(block, 'text'), 'the text came from the parser thread in pieces');
      const expected = '0123456789abcdef'.repeat((20 * 1024 * 1024) / 16);
      const pieces = outcome.kind === 'ok' ? outcome.result.pieces ?? [] : [];
      assert.ok(pieces.length >= 20 && pieces.every((p) => p.length <= 1024 * 1024), `${pieces.length} pieces`);
      assert.ok(pieces.join('') === expected, 'the pieces hold the result, in order');
      assert.ok(outcome.kind === 'ok' && outcome.result.text === expected, 'and the text is all of it');
    });

    it('the oversize message names the real setting, mcpToolHost.maxMessageSize', async () => {
      const h = host('huge', fixture('huge-result.cjs'), { maxMessageBytes: 1024 * 1024 });
      await h.connection.start();
      const outcome = await h.pipeline.call({ server: 'huge', tool: 'blob', args: { mib: 2 }, origin: 'api' });
      assert.equal(outcome.kind, 'failed');
      if (outcome.kind === 'failed') assert.match(outcome.message, /mcpToolHost\.maxMessageSize/);
    });
  });
});
