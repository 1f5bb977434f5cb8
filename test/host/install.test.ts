import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { packGreeter } from './greeterBundle';
import { promptOpened, promptShown, sleep, until } from './wait';

/** The fixture registry (test/fixtures/registry): loopback only, real server.json entries, hostile ones too. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require('../../../test/fixtures/registry/registryServer.cjs') as { startRegistry(options?: { bundle: string }): Promise<{ url: string; close(): Promise<void> }> };

type Row = vscode.QuickPickItem & { entry?: { name: string; title?: string } };
type Pick = vscode.QuickPick<Row>;

/**
 * Add Server from Registry in the real extension host: search the fixture registry, install an
 * entry (its plan shown whole first), and call a tool of the server it starts; a secret lands in
 * secret storage, never in settings; a cancel writes nothing; a hostile entry installs nothing.
 */
describe('Add Server from Registry in the real extension host', function () {
  this.timeout(120_000);
  let api: McpToolHostApi;
  let registry: { url: string; close(): Promise<void> };
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const userServers = () => config().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
  const lastPick = () => api.lastPrompt() as Pick;

  /** Opens the command and waits for the pick's answer to `query`; returns the command's promise and the pick. */
  const search = async (query: string, wanted: (items: readonly Row[]) => boolean) => {
    const opened = promptOpened(api, /^MCP Tool Host: Add Server from Registry$/);
    const running = Promise.resolve(vscode.commands.executeCommand<{ installed: string } | undefined>('mcpToolHost.addServerFromRegistry'));
    await opened;
    const pick = lastPick();
    pick.value = query;
    // The answer to `query`, not the first page still shown while the search waits for typing to
    // pause (this registry's 29 entries are all on it): a row picked there is replaced under the test.
    const answers = (row: Row) => !row.entry || `${row.entry.name} ${row.entry.title ?? ''}`.toLowerCase().includes(query.toLowerCase());
    await until(`the registry's answer to "${query}"`, () => !pick.busy && pick.items.every(answers) && wanted(pick.items) && pick.items);
    return { running, pick };
  };
  const choose = async (pick: Pick, row: Row) => {
    pick.activeItems = [row];
    await sleep(200);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  };
  /**
   * The what-will-run prompt: its rows, then "Install" (one up from "Do not install", where it starts).
   * `ms` bounds the wait for it (a bundle is downloaded and checked before it shows).
   */
  const acceptReview = async (ms?: number) => {
    const title = await promptShown(api, /^Install server /, ms);
    const rows = lastPick().items.map((i) => i.label);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return { title, rows };
  };
  /** The next box with a title matching `title`: given `value`, accepted. */
  const answerBox = async (title: RegExp, value?: string) => {
    const box = (await until(`a box titled ${title}`, () => {
      const shown = api.lastPrompt() as vscode.InputBox | undefined;
      return shown && title.test(shown.title ?? '') && shown;
    })) as vscode.InputBox;
    if (value !== undefined) box.value = value;
    await sleep(200);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  };
  /** The sandbox offer where this machine can sandbox: without, so the test runs where it cannot too. */
  const declineSandbox = async (name: string) => {
    const shown = await until('the sandbox offer or the server', () => (/^Run ".*" in a sandbox\?$/.test(api.lastPrompt()?.title ?? '') ? 'offer' : name in userServers() && 'written'));
    if (shown !== 'offer') return;
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  };

  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-registry-bundle-'));

  before(async () => {
    api = (await vscode.extensions.getExtension('mcp-tool-host.mcp-tool-host')!.activate()) as McpToolHostApi;
    registry = await startRegistry({ bundle: packGreeter(bundleDir) });
    await config().update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
    // `npx -y pkg@version` of an entry finds the package in the project's node_modules, never the network.
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    if (!fs.existsSync(path.join(folder, 'node_modules'))) fs.symlinkSync(path.resolve(__dirname, '../../../node_modules'), path.join(folder, 'node_modules'));
    process.env.npm_config_offline = 'true';
  });
  after(async () => {
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('registry.url', undefined, vscode.ConfigurationTarget.Global);
    delete process.env.npm_config_offline;
    await registry?.close();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('installs an entry found by a search after showing it whole, and a tool of it is called through the CallPipeline', async () => {
    const { running, pick } = await search('everything', (items) => items.some((i) => i.entry?.name === 'io.github.modelcontextprotocol/everything'));
    const row = pick.items.find((i) => i.entry?.name === 'io.github.modelcontextprotocol/everything')!;
    assert.match(row.description ?? '', /^\d+\.\d+\.\d+ · npm · io\.github\.modelcontextprotocol$/);
    assert.match(row.detail ?? '', /github\.com\/modelcontextprotocol\/servers/);
    await choose(pick, row);
    const review = await acceptReview();
    assert.equal(Object.keys(userServers()).length, 0, 'written before the user agreed');
    assert.match(review.rows.join('\n'), /npx -y @modelcontextprotocol\/server-everything@\d+\.\d+\.\d+/);
    assert.ok(review.rows.some((r) => /^\$\(info\) What the registry claims about it \(not checked\)$/.test(r)), `no claims heading in:\n${review.rows.join('\n')}`);
    await answerBox(/name$/);
    await declineSandbox('everything');
    const result = await running;
    assert.equal(result?.installed, 'everything');
    const entry = userServers().everything as { command: string; args: string[] };
    assert.equal(entry.command, 'npx');
    await until('everything running with its tools', () => api.pool.get('everything')?.state.kind === 'running' && api.pool.get('everything')!.tools.some((t) => t.name === 'echo'), 60_000);
    const outcome = await api.pipeline.call({ server: 'everything', tool: 'echo', args: { message: 'installed' }, origin: 'api' });
    assert.match(JSON.stringify(outcome), /installed/);
  });

  it('installs an entry that is an MCP Bundle: downloaded and checked, shown whole with both sources\' claims, and a tool of it is called', async () => {
    const { running, pick } = await search('greeter-bundle', (items) => items.some((i) => i.entry?.name === 'com.example/greeter-bundle'));
    const row = pick.items.find((i) => i.entry?.name === 'com.example/greeter-bundle')!;
    assert.match(row.description ?? '', /^1\.2\.3 · MCPB$/);
    await choose(pick, row);
    // The bundle is downloaded, its hash checked and its manifest and signature read first: on a busy
    // machine (a CI rehearsal, two lanes on two cores) that once took longer than the usual 20 s.
    const review = await acceptReview(60_000);
    const text = review.rows.join('\n');
    // A long command line is wrapped into rows: read it back as one line.
    const command = text.slice(0, text.indexOf('\n$(shield)')).replace(/\n\$\(blank\) /g, '');
    assert.match(command, /^It will run\n\$\(terminal\) node\/.*\/greeter-bundle-[0-9a-f]{12}\/server\/index\.cjs --greeting'\$\{input:greeter-bundle\.greeting\}'/);
    assert.match(text, /What the bundle and the registry claims about it \(not checked\)/);
    assert.match(text, /Signature \(checked\): unsigned/);
    assert.match(text, /Registry: Description: Greets, from a bundle the registry points at/);
    const shown: string[] = [];
    const listener = api.onDidShowPrompt((t) => shown.push(t));
    const late = (what: string) => sleep(30_000).then(() => assert.fail(`${what}; prompts shown: ${JSON.stringify(shown)}; last: ${api.lastPrompt()?.title}; settings: ${JSON.stringify(userServers())}`));
    try {
      await answerBox(/name$/);
      await answerBox(/needs "Greeting"/, 'Howdy');
      await answerBox(/needs "API key"/, 'sekrit');
      await declineSandbox('greeter-bundle');
      const result = await Promise.race([running, late('not installed')]);
      assert.equal(result?.installed, 'greeter-bundle');
    } finally {
      listener.dispose();
    }
    const entry = userServers()['greeter-bundle'] as { command: string; args: string[]; env: Record<string, string> };
    assert.equal(entry.command, 'node');
    assert.ok(fs.existsSync(entry.args[0]), `the bundle is not unpacked at ${entry.args[0]}`);
    assert.doesNotMatch(JSON.stringify(entry), /sekrit/);
    await until('greeter-bundle running with its tools', () => api.pool.get('greeter-bundle')?.state.kind === 'running' && api.pool.get('greeter-bundle')!.tools.some((t) => t.name === 'greet'), 60_000);
    const outcome = await Promise.race([api.pipeline.call({ server: 'greeter-bundle', tool: 'greet', args: { name: 'Ann' }, origin: 'api' }), sleep(30_000).then(() => assert.fail(`the call did not end; last prompt: ${api.lastPrompt()?.title}`))]);
    assert.match(JSON.stringify(outcome), /Howdy, Ann! \(key of 6 characters/);
    await config().update('servers', { everything: userServers().everything }, vscode.ConfigurationTarget.Global);
  });

  it('a bundle entry whose file is not the one the registry lists installs nothing', async () => {
    const before = JSON.stringify(userServers());
    const { running, pick } = await search('bundle-wrong-sha', (items) => items.some((i) => i.entry?.name === 'com.example/bundle-wrong-sha'));
    await choose(pick, pick.items.find((i) => i.entry?.name === 'com.example/bundle-wrong-sha')!);
    assert.equal(await running, undefined);
    assert.equal(JSON.stringify(userServers()), before);
  });

  it("keeps a secret value in secret storage, never in settings, under the key the server's launch reads", async () => {
    const { running, pick } = await search('github', (items) => items.some((i) => i.entry?.name === 'io.github.github/github-mcp-server'));
    await choose(pick, pick.items.find((i) => i.entry?.name === 'io.github.github/github-mcp-server')!);
    await acceptReview();
    await answerBox(/name$/, 'gh');
    // The OCI entry asks for its folder, its token (secret) and its toolsets: each box answered until it is installed.
    let done = false;
    void running.finally(() => (done = true));
    const asked: string[] = [];
    for (let previous: unknown; ; ) {
      const box = await until('an input box or the end', () => {
        const shown = api.lastPrompt() as vscode.InputBox | undefined;
        return (shown !== previous && shown && /^Server "gh" needs /.test(shown.title ?? '') && shown) || (done && 'done');
      });
      if (box === 'done') break;
      previous = box;
      asked.push(box.title!);
      const token = /GITHUB_PERSONAL_ACCESS_TOKEN/.test(box.title ?? '');
      assert.equal(box.password, token, `${box.title}: password box`);
      if (token) box.value = 'ghp_secret_value';
      else if (/workspace/i.test(box.title ?? '')) box.value = '/tmp';
      await sleep(200);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    assert.ok(asked.some((t) => /GITHUB_PERSONAL_ACCESS_TOKEN/.test(t)), `asked: ${asked.join(', ')}`);
    const result = await running;
    assert.equal(result?.installed, 'gh');
    const written = JSON.stringify(userServers().gh);
    assert.doesNotMatch(written, /ghp_secret_value/);
    assert.match(written, /\$\{input:gh\.GITHUB_PERSONAL_ACCESS_TOKEN\}/);
    assert.equal(await api.secrets.get('mcpToolHost.input.gh.GITHUB_PERSONAL_ACCESS_TOKEN'), 'ghp_secret_value');
    await config().update('servers', { everything: userServers().everything }, vscode.ConfigurationTarget.Global);
  });

  it('a cancel at any step writes nothing and stores nothing', async () => {
    const before = JSON.stringify(userServers());
    for (const step of ['review', 'name'] as const) {
      const { running, pick } = await search('everything', (items) => items.some((i) => i.entry));
      await choose(pick, pick.items.find((i) => i.entry?.name === 'io.github.modelcontextprotocol/everything')!);
      if (step === 'review') await promptShown(api, /^Install server /);
      else {
        await acceptReview();
        await until('the name box', () => /name$/.test(api.lastPrompt()?.title ?? ''));
      }
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await running, undefined, step);
      assert.equal(JSON.stringify(userServers()), before, `written after a cancel at ${step}`);
    }
  });

  it('a hostile entry installs nothing: its way to run says why and cannot be chosen', async () => {
    const before = JSON.stringify(userServers());
    const { running, pick } = await search('shell-npm', (items) => items.some((i) => i.entry));
    await choose(pick, pick.items.find((i) => i.entry?.name === 'com.example/shell-npm')!);
    const options = await until('the options pick', () => /how should it run\?$/.test(api.lastPrompt()?.title ?? '') && lastPick());
    assert.match(options.items[0].description ?? '', /cannot be installed/);
    assert.ok(options.items[0].detail, 'the problem is not shown');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sleep(500);
    assert.equal(api.lastPrompt(), options, 'a problem option was accepted');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await running, undefined);
    assert.equal(JSON.stringify(userServers()), before);
  });

  it('a registry that fails says so in the pick', async () => {
    const { running, pick } = await search('__error__', (items) => items.some((i) => /could not be searched/.test(i.label)));
    assert.ok(pick.items[0].detail, 'no reason given');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await running, undefined);
  });

  it("searches the registry an administrator's policy file pins, not the one the user's setting names", async () => {
    const policy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mth-policy-')), 'policy.json');
    fs.writeFileSync(policy, JSON.stringify({ registryUrl: registry.url }));
    await config().update('registry.url', 'https://registry.invalid', vscode.ConfigurationTarget.Global);
    process.env.MCP_TOOL_HOST_POLICY_FILE = policy;
    try {
      const { running, pick } = await search('everything', (items) => items.some((i) => i.entry?.name !== undefined));
      assert.ok(pick.items.some((i) => /everything/i.test(i.entry?.name ?? '')), 'the pinned registry was not searched');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await running, undefined);
      // A policy file that cannot be read might pin another registry: nothing is searched (the command
      // ends at once; were a pick shown, it would wait for an answer and the test time out).
      fs.writeFileSync(policy, '{ not json');
      assert.equal(await vscode.commands.executeCommand('mcpToolHost.addServerFromRegistry'), undefined);
    } finally {
      delete process.env.MCP_TOOL_HOST_POLICY_FILE;
      await config().update('registry.url', registry.url, vscode.ConfigurationTarget.Global);
    }
  });
});
