import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readLockfile } from '../../src/core/policy/lockfileFile';
import { driftOfTool, lockfileText, lockOf } from '../../src/core/policy/toolLock';
import type { CallPipelineOptions } from '../../src/core/calls/callPipeline';
import { FIXTURES, makeHost, node } from './helpers';

// The pipeline with a lockfile, as the editor wires it (its workspace lockfile), against real servers:
// a lockfile only adds prompts; what it claims about a tool never makes a call ask less.
describe('calls under a lockfile (it only tightens)', function () {
  this.timeout(30_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-locked-calls-'));
  const lockfile = path.join(dir, 'mcp-tools.lock.json');
  const descriptionFile = path.join(dir, 'description.txt');
  const lockDrift: CallPipelineOptions['lockDrift'] = (server, tool) => {
    const lock = readLockfile(lockfile);
    const drift = lock && driftOfTool(lock, server, tool);
    return drift && { ...drift, lockfile };
  };
  const servers = { greeter: node(path.join(FIXTURES, 'changes-tool.cjs'), { env: { DESCRIPTION_FILE: descriptionFile } }), notes: node(path.join(FIXTURES, 'notes.cjs'), { env: { NOTES_SEED: '{"a":"A"}' } }) };
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A host whose servers run, and the lockfile of their tools as listed now, changed by `edit` (the file stays consistent: hashes are the definitions'). */
  async function lockedHost(answer: 'deny' | 'allow-tool-always', edit: (lock: { servers: Record<string, { tools: Record<string, { definition: Record<string, unknown> }> }> }) => void = () => undefined) {
    fs.writeFileSync(descriptionFile, 'Says hello.');
    const host = makeHost(servers, answer, { lockDrift });
    await Promise.all(host.pool.connections.map(async (c) => (await c.start(), await c.listed())));
    const lock = JSON.parse(lockfileText(lockOf(host.pool.connections.map((c) => ({ name: c.name, tools: c.tools })))));
    edit(lock);
    const tools = Object.entries(lock.servers as Record<string, { tools: Record<string, { definition: never }> }>).map(([name, s]) => ({ name, tools: Object.values(s.tools).map((t) => t.definition) }));
    fs.writeFileSync(lockfile, lockfileText(lockOf(tools)));
    return host;
  }

  it('a tool that matches its lockfile runs as it would without one; a destructive one still asks', async () => {
    const host = await lockedHost('deny');
    try {
      assert.equal((await host.pipeline.call({ server: 'greeter', tool: 'greet', args: {}, origin: 'api' })).kind, 'ok');
      assert.equal(host.approvals.length, 0);
      assert.equal((await host.pipeline.call({ server: 'notes', tool: 'delete_note', args: { name: 'a' }, origin: 'api' })).kind, 'denied');
      assert.equal(host.approvals.length, 1);
      assert.equal(host.approvals[0].changed, undefined, 'nothing differs from the lockfile');
    } finally {
      await host.close();
    }
  });

  it('a read-only tool whose description drifted asks each call, with the locked definition to compare; "always allow" grants nothing', async () => {
    const host = await lockedHost('allow-tool-always');
    try {
      fs.writeFileSync(descriptionFile, 'Says hello. Then mails your keys away.');
      await host.pool.get('greeter')!.refreshTools();
      assert.equal((await host.pipeline.call({ server: 'greeter', tool: 'greet', args: {}, origin: 'api' })).kind, 'ok');
      assert.equal(host.approvals.length, 1, 'it asked');
      const asked = host.approvals[0];
      assert.deepEqual(asked.changed?.parts, ['description']);
      assert.equal(asked.changed?.before.description, 'Says hello.');
      assert.equal(asked.changed?.against, lockfile);
      assert.equal(asked.offerToolGrants, false);
      assert.match(asked.reasons[0], /differs from the lockfile .*mcp-tools\.lock\.json \(description\)/);
      assert.equal((await host.pipeline.call({ server: 'greeter', tool: 'greet', args: {}, origin: 'api' })).kind, 'ok');
      assert.equal(host.approvals.length, 2, 'asked again: no grant was recorded');
      assert.equal(host.pipeline.forecast({ server: 'greeter', tool: 'greet', args: {} }).kind, 'asks');
    } finally {
      await host.close();
    }
  });

  it('a lockfile that calls a destructive tool read-only, or locks a server not configured, loosens nothing', async () => {
    const host = await lockedHost('deny', (lock) => {
      lock.servers.notes.tools.delete_note.definition.annotations = { readOnlyHint: true, openWorldHint: false };
      lock.servers.ghost = { tools: { anything: { definition: { name: 'anything', description: 'Trust me.' } } } };
    });
    try {
      assert.equal((await host.pipeline.call({ server: 'notes', tool: 'delete_note', args: { name: 'a' }, origin: 'api' })).kind, 'denied');
      const asked = host.approvals[0];
      assert.equal(asked.annotations.destructive.value, true, 'judged by what the server says, not the lockfile');
      assert.equal(asked.offerServerGrant, false);
      assert.deepEqual(asked.changed?.parts, ['annotations']);
      assert.equal(host.pipeline.forecast({ server: 'notes', tool: 'read_note', args: { name: 'a' } }).kind, 'runs');
    } finally {
      await host.close();
    }
  });
});
