import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { credentialFilePath, fileSecretStore } from '../../src/cli/credentialStoreFile';

/** The compiled store, as each writer process loads it. */
const STORE_MODULE = path.resolve(__dirname, '../../src/cli/credentialStoreFile.js');

/** A process that saves the record of `key` `times` times (a new value each time), as a CLI run saving its refreshed tokens does. */
function writer(file: string, key: string, times: number): Promise<{ code: number | null; stderr: string }> {
  const script = `
    const { fileSecretStore } = require(${JSON.stringify(STORE_MODULE)});
    (async () => {
      const store = fileSecretStore(${JSON.stringify(file)});
      for (let i = 0; i < ${times}; i++) await store.store(${JSON.stringify(key)}, JSON.stringify({ tokens: { access_token: 'token-' + i } }));
    })().catch((err) => { console.error(err.stack); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the CLI credentials file, written by two CLI processes at once', function () {
  if (process.platform === 'win32') return;
  this.timeout(60_000);
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('two processes each saving another server\'s sign-in many times: both records are there at the end, with their last values (no write lost)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-creds-race-'));
    const file = credentialFilePath({ XDG_STATE_HOME: dir }, 'linux', '/home/nobody');
    const times = 150;
    const runs = await Promise.all([writer(file, 'mcpToolHost.oauth.alpha', times), writer(file, 'mcpToolHost.oauth.beta', times)]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const store = fileSecretStore(file);
    const last = JSON.stringify({ tokens: { access_token: `token-${times - 1}` } });
    assert.deepEqual([await store.get('mcpToolHost.oauth.alpha'), await store.get('mcpToolHost.oauth.beta')], [last, last]);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['credentials.json'], 'no lock or temporary file left behind');
  });
});
