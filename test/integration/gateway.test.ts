import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { checkAsksForWrite, everything, fixture, gatewayFolder, stdioClient, textOf } from './gatewayClients';
import { until } from './helpers';

/** The pids of `pid`'s children (the servers the gateway started). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('gateway: mcp-tool-host serve over stdio, driven by the official SDK client', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());
  const config = () => folder.config({ everything, rules: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }), renamer: fixture('renames-tool.cjs') });

  it("lists every server's tools under <server>_<tool> and calls everything's echo and get-sum through the pipeline", async () => {
    const { client } = await stdioClient(config(), folder.dir);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ['everything_echo', 'everything_get-sum', 'rules_write_file', 'renamer_mine']) assert.ok(names.includes(name), names.join(', '));
      const write = tools.find((t) => t.name === 'rules_write_file')!;
      assert.equal(write.annotations?.destructiveHint, true);
      assert.match(write.description ?? '', /tool "write_file" of server "rules"/);
      assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'through the gateway' } })), 'Echo: through the gateway');
      assert.match(textOf(await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 3 } })), /is 5/);
      const bad = await client.callTool({ name: 'everything_get-sum', arguments: { a: 'two' } });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /^Not sent: the arguments do not match the tool's input schema/);
    } finally {
      await client.close();
    }
  });

  it('a destructive call asks the client through elicitation: accept runs it, decline is a tool error and sends nothing', async () => {
    let answer: 'accept' | 'decline' = 'accept';
    const { client, forms } = await stdioClient(config(), folder.dir, () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }));
    try {
      await checkAsksForWrite(client, forms, () => (answer = 'decline'), () => folder.called());
    } finally {
      await client.close();
    }
  });

  it('a client without elicitation is never assumed to agree: the destructive call is denied with the reason and never reaches the server', async () => {
    const { client } = await stdioClient(config(), folder.dir);
    const before = folder.called().length;
    try {
      const denied = await client.callTool({ name: 'rules_run_query', arguments: { sql: 'drop table users' } });
      assert.equal(denied.isError, true);
      assert.match(textOf(denied), /needs approval \(may change or delete data \(destructive\)\), and this MCP client cannot be asked/);
      assert.equal(folder.called().length, before);
      // A read-only tool runs without asking.
      assert.equal(textOf(await client.callTool({ name: 'rules_read_file', arguments: { path: 'x' } })), 'ran read_file');
    } finally {
      await client.close();
    }
  });

  it("a server that renames its tool to another server's keeps its own prefix: the name and its calls stay with their owner, and list_changed reaches the client", async () => {
    const { client } = await stdioClient(config(), folder.dir);
    try {
      let changed = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      await client.listTools();
      assert.equal(textOf(await client.callTool({ name: 'renamer_rename', arguments: { to: 'echo' } })), 'renamed to echo');
      await until('list_changed reached the client', () => changed > 0);
      let names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('renamer_echo') && !names.includes('renamer_mine'), names.join(', '));
      assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'mine' } })), 'Echo: mine');
      assert.equal(textOf(await client.callTool({ name: 'renamer_echo', arguments: {} })), "the renamer's echo");
      // Its tool named like another server's gateway name still gets its own prefix.
      await client.callTool({ name: 'renamer_rename', arguments: { to: 'everything_echo' } });
      await until('list_changed reached the client again', () => changed > 1);
      names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('renamer_everything_echo'), names.join(', '));
      assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'still mine' } })), 'Echo: still mine');
    } finally {
      await client.close();
    }
  });

  it('--tools search offers only search_tools and call_tool (and read-result, for results over the budget); a found tool is called through the same policy', async () => {
    const { client } = await stdioClient(config(), folder.dir, undefined, ['--tools', 'search']);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['search_tools', 'call_tool', 'read-result']);
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'sum of two numbers', limit: 3 } });
      const hits = (found.structuredContent as { tools: { name: string; inputSchema: unknown }[] }).tools;
      assert.ok(hits.some((t) => t.name === 'everything_get-sum'), hits.map((t) => t.name).join(', '));
      assert.match(textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'everything_get-sum', arguments: { a: 1, b: 2 } } })), /is 3/);
      const denied = await client.callTool({ name: 'call_tool', arguments: { name: 'rules_write_file', arguments: { path: 'c.txt' } } });
      assert.match(textOf(denied), /cannot be asked/);
      // Called by name it is no tool of this gateway: a JSON-RPC error (-32602 "Unknown tool").
      await assert.rejects(client.callTool({ name: 'everything_echo', arguments: { message: 'x' } }), (err: Error & { code?: number }) => err.code === -32602 && /offers search_tools and call_tool/.test(err.message));
    } finally {
      await client.close();
    }
  });

  it('--tools search lists the other tools of the best server when the words miss; a search by a listed name returns its definition', async () => {
    const { client } = await stdioClient(config(), folder.dir, undefined, ['--tools', 'search']);
    try {
      type Found = { tools: { name: string; description?: string; inputSchema: unknown }[]; servers?: { server: string; tools: string[] }[] };
      // "parrot" and "sentence" are no word of echo's definition: the top 5 miss it, its server fits.
      const first = (await client.callTool({ name: 'search_tools', arguments: { query: 'parrot my sentence to the demo server' } })).structuredContent as Found;
      assert.ok(!first.tools.some((t) => t.name === 'everything_echo'), first.tools.map((t) => t.name).join(', '));
      assert.equal(first.servers?.[0].server, 'everything');
      assert.ok(first.servers[0].tools.includes('everything_echo'), JSON.stringify(first.servers));
      const listed = new Set(first.servers.flatMap((s) => s.tools));
      assert.ok(!first.tools.some((t) => listed.has(t.name)), 'a tool found is not listed again');
      const second = (await client.callTool({ name: 'search_tools', arguments: { query: 'everything_echo', limit: 1 } })).structuredContent as Found;
      assert.deepEqual(second.tools.map((t) => t.name), ['everything_echo']);
      assert.ok(second.tools[0].inputSchema && second.servers === undefined, JSON.stringify(second));
      assert.match(textOf(await client.callTool({ name: 'call_tool', arguments: { name: 'everything_echo', arguments: { message: 'polly' } } })), /polly/);
    } finally {
      await client.close();
    }
  });

  for (const how of ['SIGTERM', 'stdin closed'] as const) {
    it(`leaves no process behind when it ends (${how})`, async () => {
      const { client, pid } = await stdioClient(config(), folder.dir);
      await client.listTools();
      const servers = childrenOf(pid);
      assert.ok(servers.length >= 3, `the servers run under the gateway: ${servers.join(', ')}`);
      if (how === 'SIGTERM') process.kill(pid, 'SIGTERM');
      await client.close();
      await until('the gateway exited', () => !alive(pid), 15_000);
      await until('every server it started exited', () => servers.every((s) => !alive(s)), 15_000);
    });
  }
});
