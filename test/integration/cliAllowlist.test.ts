import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { FIXTURES, ROOT } from './helpers';
import { runCli, type CliRun } from './cliRun';
import { stdioClient } from './gatewayClients';

interface RegistryFixture {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require(path.join(ROOT, 'test/fixtures/registry/registryServer.cjs')) as { startRegistry(): Promise<RegistryFixture> };

/**
 * The administrator's allowlist of servers (`"allowedServers"` in a policy file) in the CLI and the
 * gateway, with real processes: what it refuses never starts (the refused servers leave a mark when
 * they do), and says which policy refused it and what it would have run.
 */
describe("the administrator's allowlist of servers, in the CLI and the gateway", function () {
  this.timeout(60_000);
  let dir: string;
  let config: string;
  let policy: string;
  let marker: string;
  let remoteHits: number;
  let remote: http.Server;
  const filesServer = path.join(FIXTURES, 'recorded-files.cjs');

  function cli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = dir): Promise<CliRun> {
    return runCli([...args, '--config', config], { cwd, env: { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), MCP_TOOL_HOST_POLICY_FILE: policy, ...env } });
  }
  const writePolicy = (value: unknown) => fs.writeFileSync(policy, typeof value === 'string' ? value : JSON.stringify(value));

  before(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mth-allowlist-')));
    marker = path.join(dir, 'started');
    policy = path.join(dir, 'policy.json');
    // Would leave a mark if it ran at all: what a refusal must prevent.
    const markAndServe = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); require(${JSON.stringify(filesServer)})`;
    const preload = path.join(dir, 'preload.js');
    fs.writeFileSync(preload, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'preloaded');`);
    remote = http.createServer((_req, res) => (remoteHits++, res.writeHead(500).end()));
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    const port = (remote.address() as AddressInfo).port;
    config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({
      servers: {
        files: { command: process.execPath, args: [filesServer, path.join(dir, 'calls.jsonl')] },
        other: { command: process.execPath, args: ['-e', markAndServe, path.join(dir, 'calls.jsonl')] },
        injected: { command: process.execPath, args: [filesServer, path.join(dir, 'calls.jsonl')], env: { NODE_OPTIONS: `--require ${preload}` } },
        remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp?key=s3cret` },
        // Found in this repository's node_modules, so no download: what the fixture registry says io.github.modelcontextprotocol/everything runs.
        everything: { command: 'npx', args: ['--no-install', '@modelcontextprotocol/server-everything'] },
        lookalike: { command: 'npx', args: ['--no-install', '@modelcontextprotocol/server-everything-else'] },
      },
    }));
  });
  beforeEach(() => {
    remoteHits = 0;
    fs.rmSync(marker, { force: true });
    writePolicy({ rules: [], allowedServers: [{ command: process.execPath, args: [filesServer] }, { url: 'https://mcp.example.com/*' }] });
  });
  after(async () => {
    await new Promise((resolve) => remote.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an allowed server runs as before, and a policy file of rules and servers says nothing about its rules', async () => {
    const run = await cli(['call', 'files', 'read_file', '--args', '{"path":"/x"}']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    writePolicy({ allowedServers: [{ command: process.execPath, args: [filesServer] }] });
    const alone = await cli(['call', 'files', 'read_file', '--args', '{"path":"/x"}']);
    assert.equal(alone.stderr, '', 'a policy file with only a list of servers is not a broken rules file');
  });

  it('call says the refusal on stderr', async () => {
    const run = await cli(['call', 'other', 'read_file', '--args', '{"path":"/x"}']);
    assert.equal(run.code, 4);
    assert.match(run.stderr, /did not start: .*allows only the servers it lists/);
    assert.equal(fs.existsSync(marker), false);
  });

  it('a server the list does not name is not started: the policy file and what it runs are said, the process never ran', async () => {
    const run = await cli(['tools', 'other']);
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, new RegExp(`administrator's policy \\(${policy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) allows only the servers it lists`));
    assert.match(run.stdout + run.stderr, /it runs the command ".*node"/);
    assert.equal(fs.existsSync(marker), false, 'the refused server ran');
  });

  it('an allowed program with NODE_OPTIONS set by its definition is refused, and the preload never runs', async () => {
    const run = await cli(['tools', 'injected']);
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /sets NODE_OPTIONS, which changes the code that runs/);
    assert.equal(fs.existsSync(marker), false);
  });

  it('a remote server whose URL no pattern matches gets no request, and its query (a key) is not repeated', async () => {
    const run = await cli(['tools', 'remote']);
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /it runs the remote server http:\/\/127\.0\.0\.1:\d+\/mcp\./);
    assert.doesNotMatch(run.stdout + run.stderr, /s3cret/);
    assert.equal(remoteHits, 0);
  });

  it('a policy file that cannot be read refuses every server, saying why', async () => {
    writePolicy('{ "allowedServers": [');
    const run = await cli(['tools', 'files']);
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /policy\.json is not valid JSON.*whether this server may run is not known/);
    const rulesOnly = path.join(dir, 'rules-only.json');
    fs.writeFileSync(rulesOnly, JSON.stringify({ rules: [] }));
    const free = await cli(['tools', 'other'], { MCP_TOOL_HOST_POLICY_FILE: rulesOnly });
    assert.equal(free.code, 0, `a policy without a list refuses nothing: ${free.stderr}`);
  });

  it('doctor says the refusal instead of launching', async () => {
    const run = await cli(['doctor', 'other']);
    assert.match(run.stdout + run.stderr, /allows only the servers it lists/);
    assert.equal(fs.existsSync(marker), false);
  });

  it('the gateway offers the allowed server only, and never starts the others', async () => {
    const { client } = await stdioClient(config, dir, undefined, [], { MCP_TOOL_HOST_POLICY_FILE: policy });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('files_write_file'), names.join(', '));
      assert.ok(!names.some((n) => n.startsWith('other_') || n.startsWith('injected_') || n.startsWith('remote_')), names.join(', '));
      assert.equal(fs.existsSync(marker), false);
      assert.equal(remoteHits, 0);
    } finally {
      await client.close();
    }
  });

  it("a registryName entry allows what the administrator's registry says those servers run, and nothing else; a registry that cannot answer allows nothing", async () => {
    const registry = await startRegistry();
    try {
      writePolicy({ registryUrl: registry.url, allowedServers: [{ registryName: 'io.github.modelcontextprotocol/*' }] });
      const allowedRun = await cli(['tools', 'everything'], {}, ROOT);
      assert.equal(allowedRun.code, 0, allowedRun.stdout + allowedRun.stderr);
      assert.match(allowedRun.stdout, /echo/);
      assert.ok(registry.requests.some((r) => r.startsWith('/v0.1/servers?search=io.github.modelcontextprotocol%2F')), registry.requests.join(', '));
      const lookalike = await cli(['tools', 'lookalike'], {}, ROOT);
      assert.notEqual(lookalike.code, 0);
      assert.match(lookalike.stdout + lookalike.stderr, /not among them: it runs the npm package @modelcontextprotocol\/server-everything-else /);
      const other = await cli(['tools', 'other']);
      assert.notEqual(other.code, 0);
      assert.equal(fs.existsSync(marker), false);
    } finally {
      await registry.close();
    }
    // The registry is gone: nothing it named can be checked, so nothing is allowed, and the run says why.
    const down = await cli(['tools', 'everything'], {}, ROOT);
    assert.notEqual(down.code, 0);
    assert.match(down.stdout + down.stderr, /could not be checked \(io\.github\.modelcontextprotocol\/\*: the registry http:\/\/127\.0\.0\.1:\d+ could not be asked/);
  });
});
