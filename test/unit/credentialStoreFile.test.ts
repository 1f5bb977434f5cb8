import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { credentialFilePath, fileSecretStore } from '../../src/cli/credentialStoreFile';

describe('the CLI credentials file', function () {
  if (process.platform === 'win32') return;
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-creds-file-'));
    file = credentialFilePath({ XDG_STATE_HOME: dir }, 'linux', '/home/nobody');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lives in a folder of its own under $XDG_STATE_HOME/mcp-tool-host (~/.local/state without it)', () => {
    assert.equal(file, path.join(dir, 'mcp-tool-host', 'auth', 'credentials.json'));
    assert.equal(credentialFilePath({}, 'linux', '/home/u'), '/home/u/.local/state/mcp-tool-host/auth/credentials.json');
  });

  it('keeps each key apart, replaces the file whole and leaves no temporary file behind', async () => {
    const store = fileSecretStore(file);
    assert.equal(await store.get('a'), undefined);
    assert.ok(!fs.existsSync(file), 'reading creates nothing');
    await store.store('a', 'one');
    await store.store('b', 'two');
    await store.delete('a');
    assert.equal(await store.get('a'), undefined);
    assert.equal(await fileSecretStore(file).get('b'), 'two');
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['credentials.json']);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  it('a file that is not its JSON is refused and left as it is', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, '{ half', { mode: 0o600 });
    const store = fileSecretStore(file);
    await assert.rejects(store.store('a', 'x'), { message: `The credentials file ${file} is not valid JSON, so it was left as it is. Remove it to sign in again (rm ${file}).` });
    assert.equal(fs.readFileSync(file, 'utf8'), '{ half');
    fs.writeFileSync(file, '{"version": 2, "entries": {}}');
    await assert.rejects(store.get('a'), /is not in the format this version writes \(version 1\), so it was left as it is/);
  });

  it('a link in place of the file or the folder is refused, and what it points to is never written', async () => {
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, '{"version": 1, "entries": {}}', { mode: 0o600 });
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.symlinkSync(elsewhere, file);
    await assert.rejects(fileSecretStore(file).store('a', 'x'), { message: `The credentials file ${file} is a symbolic link, so it was not used: it must be a file of its own. Remove it (rm ${file}) and sign in again.` });
    assert.equal(fs.readFileSync(elsewhere, 'utf8'), '{"version": 1, "entries": {}}');
    fs.rmSync(path.dirname(file), { recursive: true });
    const folder = path.join(dir, 'folder');
    fs.mkdirSync(folder, { mode: 0o700 });
    fs.symlinkSync(folder, path.dirname(file));
    await assert.rejects(fileSecretStore(file).store('a', 'x'), /The credentials folder .* is a symbolic link, so it was not used/);
    assert.deepEqual(fs.readdirSync(folder), []);
  });

  it("a file of another user is refused (root can make one)", async function () {
    if (process.getuid?.() !== 0) this.skip();
    await fileSecretStore(file).store('a', 'x');
    fs.chownSync(file, 4242, 4242);
    await assert.rejects(fileSecretStore(file).get('a'), { message: `The credentials file ${file} belongs to another user (uid 4242), so it was not used. Remove it (rm ${file}) and sign in again.` });
  });

  it('a lock left by a run that died (not refreshed for seconds) is taken over; a lock held for a moment is waited for', async () => {
    const lock = `${file}.lock`;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.mkdirSync(lock);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    await fileSecretStore(file).store('a', 'one');
    assert.equal(await fileSecretStore(file).get('a'), 'one');
    assert.ok(!fs.existsSync(lock), 'released');
    fs.mkdirSync(lock);
    const released = new Promise<void>((resolve) => setTimeout(() => resolve(fs.rmSync(lock, { recursive: true })), 300));
    await fileSecretStore(file).store('b', 'two');
    await released;
    assert.deepEqual([await fileSecretStore(file).get('a'), await fileSecretStore(file).get('b')], ['one', 'two']);
  });
});
