import * as assert from 'node:assert/strict';
import { detectAndConvert } from '../../src/core/config/formats';
import { launchFingerprint, parseServers } from '../../src/core/config/serverConfig';
import { inspectorPort, withInspector } from '../../src/core/transport/inspector';

const stdio = (dev: unknown) => ({ s: { command: 'node', args: ['build/index.js'], dev } });
const problem = (dev: unknown, source: 'user' | 'workspace' = 'workspace') => parseServers(stdio(dev), source).errors.map((e) => e.message).join('\n');

describe('dev mode configuration (VS Code\'s "dev" of a server)', () => {
  it('reads VS Code\'s shape: a glob or a list of globs, and debug { type: "node" }', () => {
    const one = parseServers(stdio({ watch: 'build/**/*.js', debug: { type: 'node' } }), 'workspace');
    assert.deepEqual(one.errors, []);
    const spec = one.servers[0].spec;
    assert.ok(spec.type === 'stdio');
    assert.deepEqual(spec.dev, { watch: ['build/**/*.js'], debug: { type: 'node' } });
    const list = parseServers(stdio({ watch: ['src/**/*.ts', 'package.json'] }), 'user').servers[0].spec;
    assert.deepEqual(list.type === 'stdio' && list.dev, { watch: ['src/**/*.ts', 'package.json'] });
  });

  it('carries "dev" of .vscode/mcp.json through, no longer dropped with a warning', () => {
    const out = detectAndConvert(JSON.stringify({ servers: { fs: { type: 'stdio', command: 'node', args: ['x.js'], dev: { watch: 'build/**', debug: { type: 'node' } } } } }), '/w/.vscode/mcp.json');
    assert.deepEqual(out.warnings, []);
    const spec = parseServers(out.servers, 'workspace').servers[0].spec;
    assert.deepEqual(spec.type === 'stdio' && spec.dev, { watch: ['build/**'], debug: { type: 'node' } });
  });

  it('keeps a debugger type it cannot run (debugpy) so the log can say so, and refuses a wrong shape by name', () => {
    const spec = parseServers(stdio({ debug: { type: 'debugpy', debugpyPath: '/x' } }), 'user').servers[0].spec;
    assert.deepEqual(spec.type === 'stdio' && spec.dev, { watch: [], debug: { type: 'debugpy' } });
    assert.match(problem('build'), /"dev" must be an object with "watch"/);
    assert.match(problem({ watch: 3 }), /"dev.watch" must be a glob or a list of globs/);
    assert.match(problem({ watch: 'x', restart: true }), /"dev" has unknown key "restart"/);
    assert.match(problem({ debug: 'node' }), /"dev.debug" must be \{ "type": "node" \}/);
  });

  it('a repository cannot watch outside its workspace: absolute paths, "~" and ".." are refused (for every source)', () => {
    for (const [pattern, why] of [['/etc/**', 'is an absolute path'], ['C:/Users/**', 'is an absolute path'], ['\\\\server\\share\\**', 'is an absolute path'], ['~/.ssh/*', 'starts with "~"'], ['../other/**', 'has a ".." segment'], ['build/../../secret/*', 'has a ".." segment'], ['build\\..\\..\\x', 'has a ".." segment'], ['', 'is empty']]) {
      for (const source of ['workspace', 'user'] as const) {
        assert.match(problem({ watch: ['ok/**', pattern] }, source), new RegExp(`"dev.watch" pattern ".*" ${why.replace(/[.*"()~]/g, '\\$&')}: patterns are relative to the workspace folder`), `${pattern} (${source})`);
      }
    }
  });

  it('a repository cannot choose where the inspector listens: a host, port or address in "debug" is refused', () => {
    for (const key of ['host', 'port', 'address', 'inspect']) {
      assert.match(problem({ debug: { type: 'node', [key]: key === 'port' ? 9229 : '0.0.0.0' } }), new RegExp(`"dev.debug" has unknown key "${key}": it takes only "type" \\(the inspector always listens on 127.0.0.1 at a free port\\)`));
    }
  });

  it('is for stdio servers only, with a sentence that says why', () => {
    const parsed = parseServers({ r: { url: 'https://example.com/mcp', dev: { watch: 'x' } } }, 'user');
    assert.match(parsed.errors[0].message, /"dev" is for stdio servers/);
  });

  it('is part of the launch (adding it asks again), and a launch without it keeps its fingerprint', () => {
    const plain = parseServers({ s: { command: 'node', args: ['build/index.js'] } }, 'workspace').servers[0].spec;
    const withDev = parseServers(stdio({ watch: 'build/**' }), 'workspace').servers[0].spec;
    assert.notEqual(launchFingerprint(plain), launchFingerprint(withDev));
    assert.equal(launchFingerprint(plain), launchFingerprint({ type: 'stdio', command: 'node', args: ['build/index.js'], env: {}, envFile: undefined, cwd: undefined }));
  });
});

describe('the Node inspector of a server in dev mode', () => {
  const launch = { command: 'node', args: ['build/index.js', '--flag'], env: { PATH: '/bin' } };
  it('goes right after the node executable, on 127.0.0.1 and the given port', () => {
    assert.deepEqual(withInspector(launch, 40123).args, ['--inspect=127.0.0.1:40123', 'build/index.js', '--flag']);
    assert.deepEqual(withInspector({ ...launch, command: '/usr/local/bin/node' }, 40123).args[0], '--inspect=127.0.0.1:40123');
    assert.deepEqual(withInspector({ ...launch, command: 'C:\\node\\node.exe' }, 1).args[0], '--inspect=127.0.0.1:1');
  });

  it('reaches servers run through npx (or a script) through NODE_OPTIONS, after the user\'s own, at a port each Node picks on 127.0.0.1', () => {
    const npx = withInspector({ command: 'npx', args: ['-y', 'pkg'], env: { NODE_OPTIONS: '--max-old-space-size=512' } }, 40123);
    assert.deepEqual(npx.args, ['-y', 'pkg']);
    assert.equal(npx.env.NODE_OPTIONS, '--max-old-space-size=512 --inspect=127.0.0.1:0');
    assert.equal(withInspector({ command: 'tsx', args: [], env: {} }, 1).env.NODE_OPTIONS, '--inspect=127.0.0.1:0');
  });

  it('reads the port only from a loopback announcement', () => {
    assert.equal(inspectorPort('Debugger listening on ws://127.0.0.1:40123/0f2c0a8e-1234'), 40123);
    assert.equal(inspectorPort('Debugger listening on ws://0.0.0.0:9229/abc'), undefined);
    assert.equal(inspectorPort('[server] Debugger listening on ws://127.0.0.1:1/x'), undefined);
  });
});
