import * as assert from 'node:assert/strict';
import { launchFingerprint, parseServers, sameLaunch } from '../../src/core/config/serverConfig';
import { inputSecretKey, parseEnvFile, resolveLaunch } from '../../src/core/config/launch';
import { substitute } from '../../src/core/config/variables';

describe('server configuration', () => {
  it('loads good entries and gives each broken one its own specific error', () => {
    const { servers, errors } = parseServers(
      {
        good: { command: 'npx', args: ['-y', 'x'] },
        remote: { url: 'https://example.com/mcp' },
        noCommand: { args: [] },
        badArgs: { command: 'node', args: 'server.js' },
        typo: { command: 'node', arg: ['x'] },
        badUrl: { type: 'http', url: 'ftp://x' },
      },
      'user',
    );
    assert.deepEqual(servers.map((s) => s.name), ['good', 'remote']);
    assert.equal(servers[1].spec.type, 'http');
    const messages = errors.map((e) => e.message);
    assert.deepEqual(messages, [
      'Server "noCommand": "command" is required for a stdio server (for example "npx").',
      'Server "badArgs": "args" must be an array of strings.',
      'Server "typo": unknown key "arg".',
      'Server "badUrl": "url" must start with http:// or https:// (got "ftp://x").',
    ]);
  });

  it('trusts annotations of user servers by default, not those of workspace servers', () => {
    assert.equal(parseServers({ a: { command: 'x' } }, 'user').servers[0].trustAnnotations, true);
    assert.equal(parseServers({ a: { command: 'x', trustAnnotations: false } }, 'user').servers[0].trustAnnotations, false);
    assert.equal(parseServers({ a: { command: 'x' } }, 'workspace').servers[0].trustAnnotations, false);
  });

  it('a workspace entry cannot trust itself; only the user can, by name', () => {
    const selfTrusted = parseServers({ a: { command: 'x', trustAnnotations: true } }, 'workspace');
    assert.equal(selfTrusted.servers[0].trustAnnotations, false);
    assert.deepEqual(selfTrusted.warnings, ['Server "a": "trustAnnotations" in a workspace definition is ignored (a workspace cannot trust its own tools). To trust its tool hints, add "a" to mcpToolHost.trustedWorkspaceServers in your user settings.']);
    const userTrusted = parseServers({ a: { command: 'x' }, b: { command: 'y', trustAnnotations: true } }, 'workspace', { trustedWorkspaceServers: ['a'] });
    assert.deepEqual(userTrusted.servers.map((s) => [s.name, s.trustAnnotations]), [['a', true], ['b', false]]);
    assert.equal(parseServers({ a: { command: 'x', trustAnnotations: 'yes' } }, 'workspace').errors.length, 1, 'a malformed value is still an error');
  });

  it('tells a launch change from a timeout change', () => {
    const [a] = parseServers({ s: { command: 'x', args: ['1'] } }, 'user').servers;
    const [b] = parseServers({ s: { command: 'x', args: ['1'], timeoutSeconds: 5 } }, 'user').servers;
    const [c] = parseServers({ s: { command: 'x', args: ['2'] } }, 'user').servers;
    assert.equal(sameLaunch(a, b), true);
    assert.equal(sameLaunch(a, c), false);
  });

  it('keeps the launch fingerprint that extension state stores (approvals, tool cache, pins)', () => {
    const [a] = parseServers({ s: { command: 'x', args: ['1'], timeoutSeconds: 5 } }, 'workspace').servers;
    const [c] = parseServers({ s: { command: 'x', args: ['2'] } }, 'user').servers;
    // SHA-256 of {"type":"stdio","command":"x","args":["1"],"env":{}}: a change here forgets what users approved.
    assert.equal(launchFingerprint(a.spec), 'bf40d52db649a9211c05326f4831388ee1b36bcb5ca953387585d942ac46c27e');
    assert.notEqual(launchFingerprint(c.spec), launchFingerprint(a.spec));
  });

  it('substitutes variables and names the one it cannot resolve', () => {
    const ctx = { workspaceFolders: [{ name: 'app', path: '/w/app' }], env: { TOKEN: 't' }, userHome: '/home/u' };
    assert.equal(substitute('${workspaceFolder}/x ${workspaceFolder:app} ${env:TOKEN} ${userHome}', ctx), '/w/app/x /w/app t /home/u');
    assert.equal(substitute('~/bin', ctx), '/home/u/bin');
    assert.throws(() => substitute('${workspaceFolder:nope}', ctx), /no workspace folder is named "nope"/);
    assert.throws(() => substitute('${magic}', ctx), /\$\{magic\} is not a supported variable/);
    // A default (Claude Code's `${VAR:-default}`) stands in for a variable unset or empty, as in a shell.
    const withEmpty = { ...ctx, env: { TOKEN: 't', EMPTY: '' } };
    assert.equal(substitute('${env:TOKEN:-d} ${env:UNSET:-d} ${env:EMPTY:-d} ${env:UNSET:-} ${env:UNSET:-a:-b}', withEmpty), 't d d  a:-b');
    assert.throws(() => substitute('${env::-d}', ctx), /needs a variable name/);
  });

  it('builds the environment: host env, then envFile, then env (null removes)', () => {
    const [def] = parseServers({ s: { command: 'node', env: { A: 'from-env', DROP: null, W: '${workspaceFolder}' } } }, 'user').servers;
    const launch = resolveLaunch(def, { workspaceFolders: [{ name: 'w', path: '/w' }], env: { A: 'host', DROP: 'x', KEEP: 'k' } });
    assert.equal(launch.type, 'stdio');
    if (launch.type === 'stdio') {
      assert.deepEqual(launch.launch.env, { A: 'from-env', KEEP: 'k', W: '/w' });
      assert.equal(launch.launch.cwd, '/w');
    }
    assert.deepEqual(parseEnvFile('# c\nexport A=1\nB="two\\nlines"\nC=\'x y\'\nD=v # note\n'), { A: '1', B: 'two\nlines', C: 'x y', D: 'v' });
  });
});

describe('result budgets in a server entry', () => {
  it('a budget under the least (500) or over the most is said, not changed without a word', () => {
    const parsed = parseServers({ tiny: { command: 'node', resultTokens: 200, toolResultTokens: { big: 2_000_000, fine: 800 } } }, 'user');
    assert.equal(parsed.errors.length, 0);
    assert.deepEqual(parsed.warnings, [
      'Server "tiny": "resultTokens" is 200 tokens; a result budget is at least 500, so 500 is used.',
      'Server "tiny": "toolResultTokens.big" is 2000000 tokens; a result budget is at most 1000000, so 1000000 is used.',
    ]);
    assert.match(parseServers({ zero: { command: 'node', resultTokens: 0 } }, 'user').errors[0]?.message ?? '', /"resultTokens" must be a whole number of tokens, 1 or more/);
  });
});

describe('what a server inherits of the host environment', () => {
  it("never another server's secret: the variables that give the CLI a server's inputs are not passed on unless named", () => {
    // The attacker: any configured server (a repository's, a stranger's from the registry) dumps its environment.
    const host = { PATH: '/bin', MCP_TOOL_HOST_INPUT_PROBE_SECRET: 'sk-for-probe', MCP_INPUT_GITHUB_TOKEN: 'ghp_for-github', mcp_input_lower: 'x' };
    const [other] = parseServers({ other: { command: 'node' } }, 'user').servers;
    const launched = resolveLaunch(other, { workspaceFolders: [], env: host });
    assert.ok(launched.type === 'stdio');
    assert.deepEqual(launched.launch.env, { PATH: '/bin' });
    // The server the value is for names it in its own env, as `mcp-tool-host add` writes it: it gets it there.
    const [own] = parseServers({ github: { command: 'node', env: { GITHUB_TOKEN: '${env:MCP_INPUT_GITHUB_TOKEN}', MCP_INPUT_GITHUB_TOKEN: '${env:MCP_INPUT_GITHUB_TOKEN}' } } }, 'user').servers;
    const ownLaunch = resolveLaunch(own, { workspaceFolders: [], env: host });
    assert.ok(ownLaunch.type === 'stdio');
    assert.deepEqual(ownLaunch.launch.env, { PATH: '/bin', GITHUB_TOKEN: 'ghp_for-github', MCP_INPUT_GITHUB_TOKEN: 'ghp_for-github' });
  });
});

describe('where input values are kept', () => {
  it('a workspace server never shares the key of a user server, nor of a server declared in another file', () => {
    const entry = { command: 'x', args: ['${input:token}'] };
    const [user] = parseServers({ a: entry }, 'user').servers;
    const declared = (id: string) => parseServers({ a: entry }, 'workspace', { declaredIn: { id, label: id } }).servers[0];
    const [a, again, b] = [declared('/repo-a/.vscode/mcp.json'), declared('/repo-a/.vscode/mcp.json'), declared('/repo-b/.mcp.json')];
    assert.equal(inputSecretKey(user, 'token'), 'mcpToolHost.input.token', 'unchanged for the user: values stored before keep working');
    assert.notEqual(inputSecretKey(a, 'token'), inputSecretKey(user, 'token'));
    assert.equal(inputSecretKey(a, 'token'), inputSecretKey(again, 'token'), 'the same file keeps its value');
    assert.notEqual(inputSecretKey(a, 'token'), inputSecretKey(b, 'token'));
  });
});
