import * as assert from 'node:assert/strict';
import { detectAndConvert } from '../../src/core/config/formats';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { argumentFolders, DEFAULT_SANDBOX, describeSandbox, withDefaultSandbox } from '../../src/core/config/sandboxConfig';
import { closedBySandbox, effectiveAnnotations, sandboxedOffline } from '../../src/core/tools/annotations';
import { launchFingerprint, parseServers } from '../../src/core/config/serverConfig';
import { sandboxDenial } from '../../src/core/transport/sandbox';

const parse = (sandbox: unknown, extra: Record<string, unknown> = { command: 'node' }) => parseServers({ s: { ...extra, sandbox } }, 'user');
const errorOf = (sandbox: unknown, extra?: Record<string, unknown>) => {
  const out = parse(sandbox, extra);
  assert.equal(out.servers.length, 0, `expected an error for ${JSON.stringify(sandbox)}`);
  return out.errors[0].message;
};

describe('the "sandbox" of a server (issue 17)', () => {
  it('reads the lists, "none" network and allowUnsandboxed', () => {
    const out = parse({ filesystem: { denyRead: ['~/.ssh'], allowWrite: ['${workspaceFolder}/out'], denyWrite: ['.env'] }, network: { allowedDomains: ['api.github.com', '*.example.com:443'], deniedDomains: ['evil.example.com'] }, allowUnsandboxed: true });
    assert.deepEqual(out.errors, []);
    const spec = out.servers[0].spec;
    assert.ok(spec.type === 'stdio' && spec.sandbox);
    assert.deepEqual(spec.sandbox.filesystem, { denyRead: ['~/.ssh'], allowWrite: ['${workspaceFolder}/out'], denyWrite: ['.env'] });
    assert.deepEqual(spec.sandbox.network.allowedDomains, ['api.github.com', '*.example.com:443']);
    assert.equal(spec.sandbox.allowUnsandboxed, true);
    const none = parse({ network: 'none' }).servers[0].spec;
    assert.ok(none.type === 'stdio' && none.sandbox);
    assert.deepEqual(none.sandbox.network, { allowedDomains: [], deniedDomains: [] });
    assert.deepEqual(none.sandbox.filesystem.allowWrite, [], 'no writes unless listed');
  });

  it('true is the defaults, false is explicitly none', () => {
    const on = parse(true).servers[0].spec;
    assert.ok(on.type === 'stdio');
    assert.deepEqual(on.sandbox, DEFAULT_SANDBOX);
    const off = parse(false).servers[0].spec;
    assert.ok(off.type === 'stdio' && off.sandbox === false);
  });

  it('names each mistake', () => {
    assert.match(errorOf('yes'), /"sandbox" must be true, false, or an object/);
    assert.match(errorOf({ files: {} }), /"sandbox" has unknown key "files"/);
    assert.match(errorOf({ filesystem: [] }), /"sandbox.filesystem" must be an object/);
    assert.match(errorOf({ filesystem: { allowRead: [] } }), /"sandbox.filesystem" has unknown key "allowRead"/);
    assert.match(errorOf({ filesystem: { allowWrite: 'out' } }), /"sandbox.filesystem.allowWrite" must be a list of strings/);
    assert.match(errorOf({ filesystem: { allowWrite: [''] } }), /allowWrite" holds an empty path/);
    assert.match(errorOf({ filesystem: { allowWrite: ['/'] } }), /allowWrite" holds "\/" \(the whole machine/);
    assert.match(errorOf({ network: 'all' }), /"sandbox.network" must be "none" or an object/);
    assert.match(errorOf({ network: { allowedDomains: ['https://x.com/a'] } }), /"https:\/\/x.com\/a", which is not a host name/);
    assert.match(errorOf({ network: { allowedDomains: ['*'] } }), /"\*" \(every host/);
    assert.match(errorOf({ network: { hosts: [] } }), /"sandbox.network" has unknown key "hosts"/);
    assert.match(errorOf({ allowUnsandboxed: 'yes' }), /"sandbox.allowUnsandboxed" must be true or false/);
    assert.match(errorOf(true, { url: 'https://example.com/mcp' }), /"sandbox" is for stdio servers/);
  });

  it('changes the launch fingerprint only of a server that has one (other servers keep their approvals and caches)', () => {
    const plain = parseServers({ s: { command: 'node' } }, 'user').servers[0].spec;
    const boxed = parse(true).servers[0].spec;
    assert.notEqual(launchFingerprint(plain), launchFingerprint(boxed));
    assert.equal(JSON.stringify(plain).includes('sandbox'), false);
  });

  it("reads VS Code's mcp.json sandboxEnabled + top-level sandbox, adding VS Code's defaults", () => {
    const text = JSON.stringify({
      sandbox: { filesystem: { allowWrite: ['/data'], denyRead: ['~/.aws'] }, network: { allowedDomains: ['api.github.com'] } },
      servers: { boxed: { command: 'npx', args: ['pkg'], sandboxEnabled: true }, free: { command: 'npx', sandboxEnabled: false } },
    });
    const out = detectAndConvert(text, '/w/.vscode/mcp.json');
    assert.deepEqual(out.warnings, []);
    const parsed = parseServers(out.servers, 'workspace');
    assert.deepEqual(parsed.errors, []);
    const [boxed, free] = parsed.servers.map((s) => s.spec);
    assert.ok(boxed.type === 'stdio' && boxed.sandbox && free.type === 'stdio');
    assert.deepEqual(boxed.sandbox.filesystem, { denyRead: ['~/.aws'], allowWrite: ['/data', '.', '~/.npm'], denyWrite: [] });
    assert.deepEqual(boxed.sandbox.network.allowedDomains, ['api.github.com', 'registry.npmjs.org']);
    assert.equal(free.sandbox, undefined);
  });

  it('describes what a sandbox allows, one line per kind', () => {
    assert.deepEqual(describeSandbox(DEFAULT_SANDBOX), ['writes: ., ~/.npm', "writes the folders its arguments name (a workspace's server: only those inside the workspace)", 'reads: everything', 'network: registry.npmjs.org']);
    const tight = parse({ filesystem: { denyRead: ['~/.ssh'] } }).servers[0].spec;
    assert.ok(tight.type === 'stdio' && tight.sandbox);
    assert.deepEqual(describeSandbox(tight.sandbox), ['writes: nowhere', "writes the folders its arguments name (a workspace's server: only those inside the workspace)", 'reads: everything except ~/.ssh', 'network: none']);
  });

  it('names the denial in stderr that likely made a sandboxed server fail, and nothing else', () => {
    assert.match(sandboxDenial(['starting', "Error: EROFS: read-only file system, open '/home/u/state.db'"])!, /^Likely cause: the sandbox denied a write outside the folders it may write: Error: EROFS/);
    assert.match(sandboxDenial(['Error: getaddrinfo EAI_AGAIN api.example.com'])!, /denied a network connection/);
    assert.match(sandboxDenial(['bwrap: No permissions to creating new namespace'])!, /setting up the sandbox itself/);
    assert.equal(sandboxDenial(['TypeError: x is not a function']), undefined);
  });

  it('the default-sandbox setting: servers without a sandbox get the default; a workspace cannot opt out', () => {
    const user = parseServers({ mine: { command: 'a', sandbox: false }, plain: { command: 'b' }, remote: { url: 'https://x.example/mcp' } }, 'user').servers;
    const ws = parseServers({ theirs: { command: 'c', sandbox: false }, loose: { command: 'd', sandbox: { allowUnsandboxed: true } } }, 'workspace').servers;
    const warnings: string[] = [];
    const out = withDefaultSandbox([...user, ...ws], warnings);
    const box = (name: string) => { const spec = out.find((d) => d.name === name)!.spec; return spec.type === 'stdio' ? spec.sandbox : 'http'; };
    assert.equal(box('mine'), false, 'the user may opt a server out');
    assert.deepEqual(box('plain'), { ...DEFAULT_SANDBOX, bySetting: true });
    assert.equal(box('remote'), 'http');
    assert.deepEqual(box('theirs'), { ...DEFAULT_SANDBOX, bySetting: true });
    assert.equal((box('loose') as { allowUnsandboxed: boolean }).allowUnsandboxed, false);
    assert.equal(warnings.length, 2);
  });

  it('closed-world by sandbox: only a sandbox without network, never a destructive tool, never with allowUnsandboxed', () => {
    const spec = (sandbox: unknown) => parse(sandbox).servers[0].spec;
    assert.equal(sandboxedOffline(spec({ network: 'none' })), true);
    assert.equal(sandboxedOffline(spec({ network: { allowedDomains: ['a.example.com'] } })), false);
    assert.equal(sandboxedOffline(spec({ allowUnsandboxed: true })), false);
    assert.equal(sandboxedOffline(parseServers({ s: { command: 'n' } }, 'user').servers[0].spec), false);
    const reader = effectiveAnnotations({ annotations: { readOnlyHint: true } }, true);
    const offline = spec({ network: 'none' });
    const on = () => true;
    assert.deepEqual(closedBySandbox(reader, offline, on).openWorld, { value: false, source: 'sandbox' });
    assert.equal(closedBySandbox(reader, offline, () => false).openWorld.value, true, 'only when the user chose it');
    assert.equal(closedBySandbox(reader, spec({ network: { allowedDomains: ['a.example.com'] } }), on).openWorld.value, true, 'only without network');
    const destroyer = effectiveAnnotations({ annotations: { destructiveHint: true } }, true);
    assert.equal(closedBySandbox(destroyer, offline, on).openWorld.value, true, 'never for a destructive tool');
    assert.equal(closedBySandbox(effectiveAnnotations({}, false), offline, on).openWorld.value, true, 'untrusted hints are destructive');
    let asked = 0;
    closedBySandbox(reader, spec({ allowUnsandboxed: true }), () => (asked++, true));
    closedBySandbox(destroyer, offline, () => (asked++, true));
    assert.equal(asked, 0, 'the setting is read only for a tool it could change');
  });
});

describe('folders a sandboxed server may write because its arguments name them (issue 32)', () => {
  it("a workspace's server: only existing folders inside the workspace, links followed; never / nor the home; the user's own: any but /", () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'argf-')));
    try {
      const ws = path.join(base, 'ws');
      const home = path.join(base, 'home');
      fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
      fs.mkdirSync(home);
      fs.symlinkSync(home, path.join(ws, 'escape'));
      const args = ['--root=' + path.join(ws, 'notes'), path.join(ws, 'escape'), '~', '/', path.join(ws, 'missing'), 'relative'];
      const theirs = argumentFolders(args, 'workspace', [{ path: ws }], home);
      assert.deepEqual(theirs.writable, [path.join(ws, 'notes')]);
      assert.deepEqual(theirs.readOnly.map((r) => r.folder), [home, '/']);
      const mine = argumentFolders(args, 'user', [{ path: ws }], home);
      assert.deepEqual(mine.writable, [path.join(ws, 'notes'), home]);
      assert.deepEqual(mine.readOnly.map((r) => r.folder), ['/']);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
