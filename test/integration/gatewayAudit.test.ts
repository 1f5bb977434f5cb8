import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from './cliRun';
import { everything, gatewayFolder } from './gatewayClients';

/** `mcp-tool-host serve` as a child process, calls written as lines, the ids of the answers kept. */
class Served {
  readonly answered = new Set<unknown>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private _waiters: (() => void)[] = [];

  constructor(
    private readonly _child: ChildProcessWithoutNullStreams,
    readonly auditFile: string,
  ) {
    let rest = '';
    _child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const message = line.trim() ? (JSON.parse(line) as { id?: unknown; method?: string; error?: unknown }) : undefined;
        if (message && message.method === undefined && message.id !== undefined) {
          assert.equal(message.error, undefined, line);
          this.answered.add(message.id);
        }
      }
      for (const w of this._waiters.splice(0)) w();
    });
    _child.stderr.resume();
    this.exited = new Promise((resolve) => _child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(dir: string, config: string, rules: string): Promise<Served> {
    const state = path.join(dir, 'state');
    const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--rules', rules], { env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: state } });
    const served = new Served(child, path.join(state, 'mcp-tool-host', 'audit.jsonl'));
    served.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'audit-test', version: '1' } } });
    await served.until(() => served.answered.has('init'));
    served.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return served;
  }

  send(message: unknown): void {
    this._child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** `n` echo calls at once, ids 1..n: the gateway has many in flight, answered and audited in batches. */
  callMany(n: number): void {
    let lines = '';
    for (let id = 1; id <= n; id++) lines += `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: `m${id}` } } })}\n`;
    this._child.stdin.write(lines);
  }

  async until(done: () => boolean, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out; ${this.answered.size} answers`);
      await new Promise<void>((resolve) => {
        this._waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  closeStdin(): void {
    this._child.stdin.end();
  }

  kill(signal: NodeJS.Signals): void {
    this._child.kill(signal);
  }

  /** The audit lines of the echo calls, as on disk now. */
  auditedCalls(): number {
    if (!fs.existsSync(this.auditFile)) return 0;
    const records = fs.readFileSync(this.auditFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { server: string; tool: string; outcome: string });
    return records.filter((r) => r.server === 'everything' && r.tool === 'echo').length;
  }
}

describe('gateway: every call it answered has its audit line on disk once serve has ended', function () {
  this.timeout(120_000);
  const folder = gatewayFolder();
  let config: string;
  let rules: string;
  let served: Served | undefined;
  before(() => {
    config = folder.config({ everything });
    rules = path.join(folder.dir, 'rules.json');
    fs.writeFileSync(rules, JSON.stringify([{ name: 'all', server: '*', tool: '*', effect: 'allow' }]));
  });
  afterEach(async () => {
    served?.kill('SIGKILL');
    await served?.exited;
    served = undefined;
    fs.rmSync(path.join(folder.dir, 'state'), { recursive: true, force: true });
  });
  after(() => folder.cleanup());

  it('the client closes stdin right after its last answer', async () => {
    served = await Served.start(folder.dir, config, rules);
    served.callMany(300);
    await served.until(() => served!.answered.size === 301);
    served.closeStdin();
    assert.deepEqual(await served.exited, { code: 0, signal: null });
    assert.equal(served.auditedCalls(), 300);
  });

  it('SIGTERM right after the last answer', async () => {
    served = await Served.start(folder.dir, config, rules);
    served.callMany(300);
    await served.until(() => served!.answered.size === 301);
    served.kill('SIGTERM');
    assert.deepEqual(await served.exited, { code: 0, signal: null });
    assert.equal(served.auditedCalls(), 300);
  });

  it('SIGTERM with calls in flight: each call answered is audited (a call stopped may be too)', async () => {
    served = await Served.start(folder.dir, config, rules);
    served.callMany(2_000);
    await served.until(() => served!.answered.size > 100);
    served.kill('SIGTERM');
    const ended = await served.exited;
    const answered = served.answered.size - 1;
    assert.deepEqual(ended, { code: 0, signal: null });
    assert.ok(served.auditedCalls() >= answered, `${served.auditedCalls()} lines for ${answered} calls answered`);
  });
});
