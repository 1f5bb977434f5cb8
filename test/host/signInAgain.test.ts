// A session that outlives its token, in the real extension host: after the sign-in, the server
// moves to another authorization server (401 invalid_token, as the conformance scenario
// auth/authorization-server-migration). The call signs in again through VS Code's own sign-in
// prompt, and is sent once more. The user's browser is stood in for: `vscode.env.openExternal`
// loads the page (the fixture approves at once) and follows its redirects back to the host.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { until } from './wait';

const OAUTH_SERVER = path.resolve(__dirname, '../../../test/fixtures/servers/oauth-server.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');

/** The OAuth fixture (an authorization server and the MCP endpoint it protects), started with `args`. */
async function startFixture(...args: string[]): Promise<{ url: string; child: ChildProcess; stats(): Promise<Record<string, number>> }> {
  const child = spawn(process.execPath, [OAUTH_SERVER, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  return { url: `${base}/mcp`, child, stats: async () => (await (await fetch(`${base}/stats`)).json()) as Record<string, number> };
}

/**
 * Answers VS Code's sign-in prompt (a notification with Sign In) with Sign In, and opens its page as
 * a browser would: the extension and the test share one `vscode.window` and `vscode.env`.
 */
function signInUser() {
  const prompts: string[] = [];
  const visited: URL[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const env = vscode.env as unknown as Record<string, unknown>;
  const showInformationMessage = window.showInformationMessage;
  const openExternal = env.openExternal;
  window.showInformationMessage = (message: string, ...items: unknown[]) => {
    if (!/needs you to sign in/.test(message)) return Promise.resolve(undefined);
    prompts.push(message);
    return Promise.resolve(items.find((i) => i === 'Sign In'));
  };
  env.openExternal = async (uri: vscode.Uri) => {
    let url = new URL(uri.toString(true));
    for (let hop = 0; hop < 10; hop++) {
      visited.push(url);
      const page = await fetch(url, { redirect: 'manual' });
      await page.arrayBuffer();
      const location = page.headers.get('location');
      if (page.status < 300 || page.status >= 400 || !location) break;
      url = new URL(location, url);
    }
    return true;
  };
  const patched = window.showInformationMessage !== showInformationMessage && env.openExternal !== openExternal;
  return {
    prompts,
    visited,
    patched,
    restore: () => {
      window.showInformationMessage = showInformationMessage;
      env.openExternal = openExternal;
    },
  };
}

describe('signing in again in VS Code: the server moves to another authorization server mid-session', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  let fixture: Awaited<ReturnType<typeof startFixture>> | undefined;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.remote;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    fixture?.child.kill();
  });

  it('the call gets 401 invalid_token: the sign-in prompt shows again, the user signs in at the new server, and the call succeeds', async () => {
    // After one tools/ request (the listing) the resource names a second authorization server and refuses every earlier token.
    fixture = await startFixture('--migrate-after', '1');
    const user = signInUser();
    try {
      assert.ok(user.patched, 'the test stands in for the prompt and the browser');
      const servers = settings().inspect<Record<string, unknown>>('servers')?.globalValue;
      await settings().update('servers', { ...servers, remote: { type: 'http', url: fixture.url } }, vscode.ConfigurationTarget.Global);
      await until('remote running with its tools', () => api.pool.get('remote')?.state.kind === 'running' && api.pool.get('remote')!.tools.length > 0, 40_000);
      assert.equal(user.prompts.length, 1, 'signed in once to start');
      const outcome = await api.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.match(outcome.result.text, /signed in as client-as2-/);
      assert.equal(user.prompts.length, 2, `the sign-in prompt showed again: ${user.prompts.join(' | ')}`);
      assert.match(user.prompts[1], /^MCP server "remote" needs you to sign in\. Sign In opens a page on 127\.0\.0\.1/);
      assert.deepEqual(user.visited.filter((u) => u.pathname.endsWith('/authorize')).map((u) => u.pathname), ['/authorize', '/as2/authorize']);
      const stats = await fixture.stats();
      assert.deepEqual([stats.as2Registrations, stats.foreignClients], [1, 0]);
      assert.equal(api.pool.get('remote')?.state.kind, 'running');
    } finally {
      user.restore();
    }
  });
});
