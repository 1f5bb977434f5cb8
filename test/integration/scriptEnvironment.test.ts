import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '../../..');

/** What `npm test` / `npm start` hand to their scripts, as seen on a Node 20 machine (issue 11). */
function npmScriptEnv(checkout: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    npm_config_user_agent: 'npm/11.19.1 node/v20.0.0-leaked linux x64 workspaces/false',
    npm_config_local_prefix: checkout,
    npm_config_loglevel: 'silent',
    npm_config_nodedir: '/usr',
    NPM_CONFIG_ALLOW_SCRIPTS: '',
    npm_package_name: 'mcp-tool-host',
    npm_lifecycle_event: 'test',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    INIT_CWD: checkout,
    NODE: '/usr/bin/node',
    npm_config_registry: 'https://registry.npmjs.org/',
    NPM_CACHE: '/somewhere/npm-cache',
  };
}

describe('the e2e scripts shed npm\'s environment before nested installs and code-server', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-env-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a nested npm after env.sh sees its own Node and folder, not the calling npm\'s', () => {
    const checkout = path.join(dir, 'checkout');
    const nested = path.join(dir, 'nested');
    fs.mkdirSync(checkout);
    fs.mkdirSync(nested);
    fs.writeFileSync(path.join(nested, 'package.json'), '{ "name": "nested", "private": true }');
    const script = `. "${path.join(ROOT, 'scripts/e2e/env.sh')}" && cd "${nested}" && npm config get user-agent && npm prefix && env`;
    const out = execFileSync('bash', ['-c', script], { env: npmScriptEnv(checkout), encoding: 'utf8' }).split('\n');
    // Before the fix, the user agent was the caller's (code-server's postinstall read "node/v20"
    // from it and refused) and the prefix was the checkout.
    assert.ok(!out[0].includes('leaked'), `the caller's user agent reached the nested npm: ${out[0]}`);
    assert.equal(out[1], nested);
    const names = out.slice(2).map((l) => l.slice(0, l.indexOf('=')));
    for (const leaked of ['npm_config_user_agent', 'npm_config_local_prefix', 'npm_config_loglevel', 'npm_config_nodedir', 'NPM_CONFIG_ALLOW_SCRIPTS', 'npm_package_name', 'npm_lifecycle_event', 'npm_execpath', 'INIT_CWD', 'NODE']) {
      assert.ok(!names.includes(leaked), `${leaked} reached the nested install`);
    }
    assert.ok(names.includes('npm_config_registry'), 'a registry the caller chose is kept');
    assert.ok(out.includes('NPM_CACHE=/somewhere/npm-cache'), 'our own NPM_CACHE is kept');
  });

  it('withoutNpmEnv gives code-server the same environment rule', async () => {
    const url = pathToFileURL(path.join(ROOT, 'scripts/e2e/codeServer.mjs')).href;
    const { withoutNpmEnv } = (await import(url)) as { withoutNpmEnv(env: NodeJS.ProcessEnv): Record<string, string> };
    const env = withoutNpmEnv(npmScriptEnv(dir));
    assert.deepEqual(Object.keys(env).filter((k) => /^npm_|^INIT_CWD$|^NODE$/i.test(k)), ['npm_config_registry', 'NPM_CACHE']);
    // PATH without what npm put first for its script (issue 32: the demo's npx ran the checkout's servers).
    const npmBin = path.join(ROOT, 'node_modules', '.bin');
    const withNpm = withoutNpmEnv({ ...npmScriptEnv(dir), PATH: [npmBin, path.join(path.dirname(ROOT), 'node_modules', '.bin'), '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin', '/usr/bin', '/bin'].join(path.delimiter) });
    assert.equal(withNpm.PATH, ['/usr/bin', '/bin'].join(path.delimiter));
  });
});
