import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startHttpGateway } from '../../src/core/gateway/later';
import type { RunningHttpGateway } from '../../src/core/gateway/gatewayTypes';
import { CLI } from './cliRun';
import { checkAsksForWrite, everything, fixture, gatewayFolder, textOf } from './gatewayClients';
import { makeHost } from './helpers';

/** The official SDK client at the 2026-07-28 revision (no server-to-client requests: approvals come as input_required). */
function modernClient(options: { answer?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> }; manual?: boolean } = {}): { client: Client; forms: string[] } {
  const forms: string[] = [];
  const client = new Client(
    { name: 'gateway-2026-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(options.manual && { inputRequired: { autoFulfill: false } }) },
  );
  const answer = options.answer;
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = (request.params as { message: string }).message;
      forms.push(message);
      return answer(message);
    });
  }
  return { client, forms };
}

interface Round {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
  requestState?: string;
  isError?: boolean;
  content?: { text?: string }[];
}

describe('gateway: approvals of 2026-07-28 clients as input_required rounds', function () {
  this.timeout(60_000);

  describe('over stdio (mcp-tool-host serve), the SDK client answering the rounds itself', () => {
    const folder = gatewayFolder();
    after(() => folder.cleanup());

    it('a destructive call asks with the approval form: accepted runs once, declined is a tool error and sends nothing', async () => {
      const config = folder.config({ rules: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }) });
      let answer: 'accept' | 'decline' = 'accept';
      const { client, forms } = modernClient({ answer: () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }) });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config], env: { PATH: process.env.PATH ?? '', HOME: folder.dir, XDG_STATE_HOME: path.join(folder.dir, 'state') }, stderr: 'pipe' }));
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        await checkAsksForWrite(client, forms, () => (answer = 'decline'), () => folder.called());
      } finally {
        await client.close();
      }
    });
  });

  it('a resource read that asks is an input_required round too: accepted reads it, declined is refused with the reason', async () => {
    const host = makeHost({ everything }, 'deny', { approveAll: true });
    const gateway = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', clientVersion: 'test' });
    let answer: 'accept' | 'decline' = 'accept';
    const { client, forms } = modernClient({ answer: () => (answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' }) });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
      const uri = 'demo://resource/dynamic/text/1';
      const read = await client.readResource({ uri });
      assert.ok(read.contents.length > 0);
      assert.equal(forms.length, 1);
      assert.match(forms[0], /"resources\/read" of server "everything"/);
      assert.match(forms[0], /demo:\/\/resource\/dynamic\/text\/1/);
      answer = 'decline';
      await assert.rejects(client.readResource({ uri }), /the user did not allow this call \(decline\)/);
    } finally {
      await client.close();
      await gateway.close();
      await host.close();
    }
  });

  describe('over HTTP, a client that sends the rounds by hand (an attacker)', () => {
    const folder = gatewayFolder();
    const host = makeHost({ rules: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }) });
    let gateway: RunningHttpGateway;
    let client: Client;
    const EXPIRY_S = 2;
    before(async () => {
      gateway = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', clientVersion: 'test', approvalSeconds: EXPIRY_S });
      client = modernClient({ manual: true }).client;
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${gateway.token}` } } }));
    });
    after(async () => {
      await client.close();
      await gateway.close();
      await host.close();
      folder.cleanup();
    });

    const call = (params: Record<string, unknown>) => client.callTool(params as never, { allowInputRequired: true }) as Promise<Round>;
    const accept = { approve_call: { action: 'accept', content: { approve: true } } };
    /** The first send of a call that asks: its input_required round. */
    async function asked(args: Record<string, unknown>): Promise<{ state: string; round: Round }> {
      const round = await call({ name: 'rules_write_file', arguments: args });
      assert.equal(round.resultType, 'input_required', JSON.stringify(round));
      assert.equal(round.inputRequests?.approve_call?.method, 'elicitation/create');
      assert.match(round.inputRequests.approve_call.params.message, /"write_file" of server "rules"/);
      assert.equal(typeof round.requestState, 'string');
      return { state: round.requestState!, round };
    }
    const refusedState = (err: unknown) => /Invalid or expired requestState/.test(String((err as Error).message));

    it('the round answered as it was asked runs the call once; the same answer sent again does not run it twice', async () => {
      const { state } = await asked({ path: 'once.txt' });
      assert.deepEqual(folder.called(), []);
      const ran = await call({ name: 'rules_write_file', arguments: { path: 'once.txt' }, inputResponses: accept, requestState: state });
      assert.equal(textOf(ran), 'ran write_file');
      assert.deepEqual(folder.called(), ['write_file']);
      const again = await call({ name: 'rules_write_file', arguments: { path: 'once.txt' }, inputResponses: accept, requestState: state });
      assert.equal(again.isError, true);
      assert.match(textOf(again), /already answered, and one answer runs one call/);
      assert.deepEqual(folder.called(), ['write_file']);
    });

    it('refuses a tampered requestState, one replayed with other arguments or for another tool, and an answer without a state: nothing runs', async () => {
      const before = folder.called().length;
      const { state } = await asked({ path: 'safe.txt' });
      // Tampered: one character of the signed body changed.
      const [v, body, mac] = state.split('.');
      const flipped = body.slice(0, 10) + (body[10] === 'A' ? 'B' : 'A') + body.slice(11);
      await assert.rejects(call({ name: 'rules_write_file', arguments: { path: 'safe.txt' }, inputResponses: accept, requestState: `${v}.${flipped}.${mac}` }), refusedState);
      // Forged: a payload of the client's own, with the gateway's MAC of another.
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), p: { server: 'rules', tool: 'write_file', args: 'x', nonce: 'y' } })).toString('base64url');
      await assert.rejects(call({ name: 'rules_write_file', arguments: { path: 'safe.txt' }, inputResponses: accept, requestState: `${v}.${forged}.${mac}` }), refusedState);
      // Replayed with other arguments.
      const other = await call({ name: 'rules_write_file', arguments: { path: '/etc/passwd' }, inputResponses: accept, requestState: state });
      assert.equal(other.isError, true);
      assert.match(textOf(other), /given for another call \(another tool or other arguments\)/);
      // Replayed for another tool that asks.
      const tool = await call({ name: 'rules_run_query', arguments: { sql: 'drop table users' }, inputResponses: accept, requestState: state });
      assert.equal(tool.isError, true);
      assert.match(textOf(tool), /given for another call/);
      // An accepting answer without any state approves nothing: the client is asked again.
      const bare = await call({ name: 'rules_write_file', arguments: { path: 'safe.txt' }, inputResponses: accept });
      assert.equal(bare.resultType, 'input_required');
      assert.equal(folder.called().length, before);
    });

    it('refuses a requestState past its expiry', async () => {
      const before = folder.called().length;
      const { state } = await asked({ path: 'late.txt' });
      await new Promise((r) => setTimeout(r, EXPIRY_S * 1000 + 1100));
      await assert.rejects(call({ name: 'rules_write_file', arguments: { path: 'late.txt' }, inputResponses: accept, requestState: state }), refusedState);
      assert.equal(folder.called().length, before);
    });
  });
});
