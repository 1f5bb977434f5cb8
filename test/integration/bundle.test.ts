import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadInstall } from '../../src/core/install/load';
import * as os from 'node:os';
import type * as Later from '../../src/core/install/later';
import { checkPlanEntry } from '../../src/core/install/planValues';
import { declareSize, packGreeter, rezip, tempDir, utf8 } from './bundleFixtures';
import { ROOT } from './helpers';

/** MCP Bundles read, checked and unpacked (src/core/install/bundle*.ts), from bundles the `mcpb` tool packs here. */
describe('MCP Bundles: reading, checking and unpacking', function () {
  this.timeout(60_000);
  const dir = tempDir('mcpb-core-');
  let unsigned: string;
  let signed: string;
  before(() => {
    unsigned = packGreeter(dir);
    signed = packGreeter(dir, { file: 'signed.mcpb', sign: true });
  });
  /** The folders of the unpack roots, removed with `dir`. */
  const roots: string[] = [];
  after(() => [dir, ...roots].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const { readBundle } = loadInstall();
  /** A fresh unpack root: refused bundles must leave it as it was (absent). */
  const freshRoot = () => {
    roots.push(tempDir('mcpb-root-'));
    return path.join(roots[roots.length - 1], 'bundles');
  };

  it('plans an unsigned bundle: node and its entry point, inputs per server, the manifest as claims; nothing on disk until unpack', async () => {
    const root = freshRoot();
    const bundle = await readBundle(unsigned, { root });
    const { plan } = bundle;
    assert.equal(plan.name, 'greeter');
    assert.equal(plan.runsVia, 'mcpb');
    assert.ok(bundle.unpackDir.startsWith(root + path.sep));
    assert.deepEqual(plan.entry, {
      command: 'node',
      args: [path.join(bundle.unpackDir, 'server/index.cjs'), '--greeting', '${input:greeter.greeting}'],
      env: { GREETER_KEY: '${input:greeter.api_key}' },
    });
    assert.deepEqual(plan.inputs.map((i) => [i.id, i.secret, i.required, i.default]), [['greeter.greeting', false, false, 'Hello'], ['greeter.api_key', true, true, undefined]]);
    const claims = Object.fromEntries(plan.claims.map((c) => [c.label, c.value]));
    assert.equal(claims.Tools, 'greet');
    assert.equal(claims.Version, '1.2.3');
    assert.equal(claims['Server type'], `node, entry point ${path.join(bundle.unpackDir, 'server/index.cjs')}`);
    assert.match(claims['User configuration'], /api_key \(string, secret, required\)/);
    assert.match(claims['Signature (checked)'], /^unsigned/);
    assert.match(plan.origin, /^bundle .*greeter\.mcpb sha256:[0-9a-f]{64}$/);
    assert.equal(fs.existsSync(root), false);
    await bundle.unpack();
    assert.deepEqual(fs.readdirSync(root), [path.basename(bundle.unpackDir)]);
    assert.ok(fs.statSync(path.join(bundle.unpackDir, 'server/miniServer.cjs')).isFile());
    // Again: the earlier copy is replaced, nothing else is left beside it.
    await bundle.unpack();
    assert.deepEqual(fs.readdirSync(root), [path.basename(bundle.unpackDir)]);
  });

  it('writes out the user folders a bundle names (${HOME}, ${DOCUMENTS}), so the entry passes the install flow\'s check of foreign variables', async () => {
    const out = path.join(dir, 'home.mcpb');
    rezip(unsigned, out, (files) => {
      const m = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as { server: { mcp_config: { args: string[] } } };
      m.server.mcp_config.args.push('--root', '${HOME}', '--docs', '${DOCUMENTS}${/}notes');
      files['manifest.json'] = utf8(JSON.stringify(m));
    });
    const { plan } = await readBundle(out, { root: freshRoot() });
    assert.deepEqual((plan.entry.args as string[]).slice(3), ['--root', os.homedir(), '--docs', path.join(os.homedir(), 'Documents', 'notes')]);
    assert.equal(checkPlanEntry(plan), undefined);
  });

  it('unpacks no file or folder that others may write, whatever mode the archive gives it', async () => {
    const out = path.join(dir, 'modes.mcpb');
    rezip(unsigned, out, () => undefined, { 'server/index.cjs': (0o100777 << 16) >>> 0 });
    const bundle = await readBundle(out, { root: freshRoot() });
    await bundle.unpack();
    assert.equal(fs.statSync(path.join(bundle.unpackDir, 'server/index.cjs')).mode & 0o777, 0o755);
  });

  it('verifies a self-signed bundle: unchanged since signing, signer named, not trusted', async () => {
    const { signature, plan } = await readBundle(signed, { root: freshRoot() });
    assert.equal(signature.kind, 'signed');
    assert.ok(signature.kind === 'signed' && signature.selfSigned && !signature.trusted);
    assert.match(plan.claims[0].value, /^self-signed by MCPB Self-Signed Certificate .*unchanged since signing, but no authority vouches/);
  });

  it('refuses a signed bundle whose bytes changed after signing, and writes nothing', async () => {
    const bytes = fs.readFileSync(signed);
    bytes[200] ^= 0x01;
    const tampered = path.join(dir, 'tampered.mcpb');
    fs.writeFileSync(tampered, bytes);
    const root = freshRoot();
    await assert.rejects(readBundle(tampered, { root }), { name: 'BundleError', message: /changed after it was signed/ });
    assert.equal(fs.existsSync(root), false);
  });

  const refusals: [string, (file: string, out: string) => void, RegExp][] = [
    ['an entry with ..', (f, o) => rezip(f, o, (files) => (files['server/../../evil.txt'] = utf8('x'))), /"server\/\.\.\/\.\.\/evil\.txt" climbs out of the bundle/],
    ['an absolute entry', (f, o) => rezip(f, o, (files) => (files['/tmp/evil.txt'] = utf8('x'))), /"\/tmp\/evil\.txt" is an absolute path/],
    ['a symbolic link', (f, o) => rezip(f, o, (files) => (files['server/link'] = utf8('/etc/passwd')), { 'server/link': (0o120777 << 16) >>> 0 }), /"server\/link" is a symbolic link/],
    ['a Windows stream in a name', (f, o) => rezip(f, o, (files) => (files['server/index.cjs:hidden'] = utf8('x'))), /"server\/index\.cjs:hidden" has a ":" in its name/],
    ['more files than allowed', (f, o) => rezip(f, o, (files) => { for (let i = 0; i < 10_001; i++) files[`junk/${i}`] = new Uint8Array(0); }), /more than 10000 files/],
    ['a bomb (declared 400 MiB)', (f, o) => { fs.copyFileSync(f, o); declareSize(o, 'server/index.cjs', 400 * 1024 * 1024); }, /would unpack to \d+ MiB, more than the 300 MiB allowed/],
    ['an invalid manifest (no author)', (f, o) => rezip(f, o, (files) => {
      const m = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Record<string, unknown>;
      delete m.author;
      files['manifest.json'] = utf8(JSON.stringify(m));
    }), /manifest\.json is invalid: author: Required/],
    ['a manifest that is not JSON', (f, o) => rezip(f, o, (files) => (files['manifest.json'] = utf8('{ "name": '))), /manifest\.json is not valid JSON/],
    ['a variable MCP Bundles do not define (another secret)', (f, o) => rezip(f, o, (files) => {
      const m = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as { server: { mcp_config: { args: string[] } } };
      m.server.mcp_config.args.push('${env:GITHUB_TOKEN}');
      files['manifest.json'] = utf8(JSON.stringify(m));
    }), /uses \$\{env:GITHUB_TOKEN\}, which MCP Bundles do not define/],
    ['an entry point that is not in it', (f, o) => rezip(f, o, (files) => delete files['server/index.cjs']), /entry_point "server\/index\.cjs" is not a file in the bundle/],
    ['no manifest', (f, o) => rezip(f, o, (files) => delete files['manifest.json']), /no manifest\.json at its top level/],
  ];
  for (const [what, make, message] of refusals) {
    it(`refuses a bundle with ${what}, and writes nothing`, async () => {
      const out = path.join(dir, `${what.replace(/\W+/g, '-')}.mcpb`);
      make(unsigned, out);
      const root = freshRoot();
      await assert.rejects(readBundle(out, { root }), { name: 'BundleError', message });
      assert.equal(fs.existsSync(root), false);
    });
  }

  it('refuses a file larger than the cap before reading it', async () => {
    const big = path.join(dir, 'big.mcpb');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 101 * 1024 * 1024);
    await assert.rejects(readBundle(big, { root: freshRoot() }), { name: 'BundleError', message: /is 101 MiB, more than the 100 MiB allowed/ });
  });

  it('works from dist/install.js, which holds the format\'s schemas, signatures and unpacking but not its CLI; dist/extension.js holds none of it', async () => {
    // Strings of each part that survive minifying (npm run package builds dist/ minified).
    const install = fs.readFileSync(path.join(ROOT, 'dist/install.js'), 'utf8');
    for (const part of ['must be provided' /* the manifest schemas */, 'MCPB_SIG_END' /* the signature block */, 'Path traversal attempt detected' /* unpack */, 'PKCS#7' /* node-forge */]) assert.ok(install.includes(part), part);
    for (const part of ['Author name is required' /* the package's init command */, 'error: unknown option' /* commander */]) assert.ok(!install.includes(part), part);
    const extension = fs.readFileSync(path.join(ROOT, 'dist/extension.js'), 'utf8');
    for (const part of ['MCPB_SIG_END', 'PKCS#7', 'Path traversal attempt detected']) assert.ok(!extension.includes(part), part);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, as the extension loads it
    const bundled = require(path.join(ROOT, 'dist/install.js')) as typeof Later;
    const root = freshRoot();
    const { signature, unpack, unpackDir } = await bundled.readBundle(signed, { root });
    assert.ok(signature.kind === 'signed' && signature.selfSigned);
    await unpack();
    assert.ok(fs.statSync(path.join(unpackDir, 'server/index.cjs')).isFile());
  });
});
