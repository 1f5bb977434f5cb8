import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withDefaultSandbox } from '../../src/core/config/sandboxConfig';
import { parseServers } from '../../src/core/config/serverConfig';
import { sandboxCheck, wrapLaunch } from '../../src/core/transport/sandbox';
import { makeHost, node, ROOT } from '../integration/helpers';

const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * Issue 32: "Sandbox Every Local Server" (mcpToolHost.sandbox.stdioByDefault, the default sandbox)
 * with npm's server-filesystem, a real process under bubblewrap: it may write the folder its
 * arguments name; a repository's server may not widen its sandbox by naming the user's home or
 * `/`; what the sandbox denied is said in the tool's result; and without bubblewrap the refusal
 * names the setting that was turned on.
 */
describe('scenario: "Sandbox Every Local Server" with server-filesystem (bubblewrap; real processes)', function () {
  this.timeout(60_000);
  let folder: string;
  let home: string;
  const hosts: ReturnType<typeof makeHost>[] = [];

  before(async function () {
    const check = await sandboxCheck();
    assert.ok(check.ok, `this machine cannot sandbox: ${check.ok ? '' : check.reason}`);
  });
  beforeEach(() => {
    // Outside the working folder (ROOT): only the argument makes it writable.
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-notes-')));
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-home-')));
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** The server as the default-sandbox setting runs it (withDefaultSandbox), from the user's settings or a workspace's. */
  const sandboxedByDefault = (source: 'user' | 'workspace', args: string[]) => {
    const parsed = parseServers({ fs: node(FILESYSTEM, { args: [FILESYSTEM, ...args], env: { HOME: home } }) }, source);
    const [def] = withDefaultSandbox(parsed.servers, []);
    assert.ok(def.spec.type === 'stdio' && def.spec.sandbox, 'the setting sandboxes it');
    return { fs: { command: process.execPath, args: [FILESYSTEM, ...args], env: { HOME: home }, sandbox: true } };
  };
  const write = async (h: ReturnType<typeof makeHost>, file: string) => h.pipeline.call({ server: 'fs', tool: 'write_file', args: { path: file, content: 'from the sandbox' }, origin: 'api' });

  it("the user's own server writes the folder its arguments name", async () => {
    const h = makeHost(sandboxedByDefault('user', [folder]), 'allow-once');
    hosts.push(h);
    await h.pool.get('fs')!.start();
    const outcome = await write(h, path.join(folder, 'new.txt'));
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    assert.equal(fs.readFileSync(path.join(folder, 'new.txt'), 'utf8'), 'from the sandbox');
  });

  it("a workspace's server that names the user's home (and /) gets no write access there; the result says the sandbox denied it", async () => {
    const h = makeHost(sandboxedByDefault('workspace', [home, '/']), 'allow-once', { source: 'workspace' });
    hosts.push(h);
    await h.pool.get('fs')!.start();
    const outcome = await write(h, path.join(home, '.bashrc'));
    assert.equal(outcome.kind, 'tool-error', JSON.stringify(outcome));
    assert.equal(fs.existsSync(path.join(home, '.bashrc')), false);
    const text = outcome.kind === 'tool-error' ? outcome.result.text : '';
    assert.match(text, /EROFS|read-only file system/i);
    assert.match(text, new RegExp(`The sandbox denied a write to ${home.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/\\.bashrc: this server may write only `));
  });

  it("a workspace's server writes a folder inside the workspace that its arguments name", async () => {
    const inside = fs.mkdtempSync(path.join(ROOT, 'out', 'sb-ws-'));
    try {
      const h = makeHost(sandboxedByDefault('workspace', [inside]), 'allow-once', { source: 'workspace' });
      hosts.push(h);
      await h.pool.get('fs')!.start();
      const outcome = await write(h, path.join(inside, 'ok.txt'));
      assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    } finally {
      fs.rmSync(inside, { recursive: true, force: true });
    }
  });

  it('without bubblewrap, the refusal names the setting that was turned on, not a key of the server', async () => {
    // A PATH where `which` runs but finds no bwrap: how the library checks for it.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-nobwrap-'));
    fs.symlinkSync('/usr/bin/which', path.join(bin, 'which'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const parsed = parseServers({ fs: node(FILESYSTEM, { args: [FILESYSTEM, folder] }) }, 'user');
      const [def] = withDefaultSandbox(parsed.servers, []);
      const box = def.spec.type === 'stdio' && def.spec.sandbox;
      assert.ok(box);
      const wrapped = await wrapLaunch({ command: process.execPath, args: [FILESYSTEM, folder], env: {} }, box);
      assert.equal(wrapped.kind, 'refused');
      const reason = wrapped.kind === 'refused' ? wrapped.reason : '';
      assert.match(reason, /mcpToolHost\.sandbox\.stdioByDefault/);
      assert.doesNotMatch(reason, /allowUnsandboxed/);
    } finally {
      process.env.PATH = saved;
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
