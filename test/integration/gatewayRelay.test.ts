import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from './cliRun';
import { fixture, gatewayFolder, textOf } from './gatewayClients';

/** What the client gets back from a call or prompt that may ask (the manual multi-round-trip path). */
interface Answer {
  resultType?: string;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState?: string;
  isError?: boolean;
  content?: { text?: string }[];
  messages?: { content: { text?: string } }[];
}

/** One line of the fixture's log: what a tool was given. */
interface Reached {
  tool: string;
  keys: string[];
  state: string | null;
  declared: Record<string, unknown> | null;
}

/** The official SDK client at 2026-07-28 on `mcp-tool-host serve` over stdio; `manual`: it sends each round itself. */
async function modernClient(config: string, dir: string, capabilities: Record<string, unknown>, manual: boolean): Promise<Client> {
  const client = new Client({ name: 'relay-test', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(manual && { inputRequired: { autoFulfill: false } }) });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config], env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') }, stderr: 'pipe' });
  await client.connect(transport);
  assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  return client;
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const FORMS = { elicitation: { form: {} } };

describe('gateway: a backend\'s input_required relayed to a 2026-07-28 client', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  const config = folder.config({ rounds: fixture('input-rounds.cjs', { CALLS_FILE: folder.calls }) });
  const reached = (): Reached[] => (fs.existsSync(folder.calls) ? fs.readFileSync(folder.calls, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Reached) : []);
  let client: Client;
  const call = (name: string, args: Record<string, unknown> = {}, retry: Record<string, unknown> = {}) => client.callTool({ name, arguments: args, ...retry } as never, { allowInputRequired: true }) as Promise<Answer>;
  /** The first send of a call: its relayed round. */
  async function round(name: string, args: Record<string, unknown> = {}): Promise<Answer & { requestState: string }> {
    const answer = await call(name, args);
    assert.equal(answer.resultType, 'input_required', JSON.stringify(answer).slice(0, 400));
    assert.equal(typeof answer.requestState, 'string');
    return answer as Answer & { requestState: string };
  }
  const refusedState = (err: unknown) => /Invalid or expired requestState/.test(String((err as Error).message));

  before(async () => {
    client = await modernClient(config, folder.dir, FORMS, true);
  });
  after(async () => {
    await client.close();
    folder.cleanup();
  });

  it('passes the backend\'s form on; the answer and the backend\'s state go back to it and the call completes', async () => {
    const first = await round('rounds_ask_name');
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['user_name']);
    assert.equal(first.inputRequests!.user_name.method, 'elicitation/create');
    assert.equal(first.inputRequests!.user_name.params?.message, 'What is your name?');
    const done = await call('rounds_ask_name', {}, { inputResponses: { user_name: accept({ name: 'Alice' }) }, requestState: first.requestState });
    assert.equal(textOf(done), 'Hello, Alice!');
    assert.deepEqual(reached().at(-1)?.keys, ['user_name']);
  });

  it('loops over several rounds; the backend gets its own state back byte for byte, and the client never reads it', async () => {
    const r1 = await round('rounds_two_rounds');
    assert.deepEqual(Object.keys(r1.inputRequests ?? {}), ['step1']);
    const r2 = await call('rounds_two_rounds', {}, { inputResponses: { step1: accept({ name: 'Alice' }) }, requestState: r1.requestState });
    assert.equal(r2.resultType, 'input_required');
    assert.deepEqual(Object.keys(r2.inputRequests ?? {}), ['step2']);
    assert.notEqual(r2.requestState, r1.requestState);
    assert.equal(reached().at(-1)?.state, 'round-1|backend-only-marker');
    const done = await call('rounds_two_rounds', {}, { inputResponses: { step2: accept({ color: 'blue' }) }, requestState: r2.requestState });
    assert.equal(textOf(done), 'Done: Alice likes blue.');
    assert.equal(reached().at(-1)?.state, 'round-2:Alice|backend-only-marker');
    // Whatever the client holds, read every way it could be: the backend's state is not in it.
    for (const state of [r1.requestState, r2.requestState!]) {
      const readings = [state, ...state.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))];
      for (const reading of readings) assert.doesNotMatch(reading, /backend-only-marker|round-[12]/);
    }
  });

  it('refuses a tampered state, one minted for another tool or other arguments, and one replayed after it was spent: nothing reaches the backend', async () => {
    const first = await round('rounds_wipe', { folder: 'a' });
    // The gateway's approval round comes first for this destructive tool; answered, the backend's round follows.
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['approve_call']);
    const backend = await call('rounds_wipe', { folder: 'a' }, { inputResponses: { approve_call: accept({ approve: true }) }, requestState: first.requestState });
    assert.equal(backend.resultType, 'input_required', JSON.stringify(backend));
    assert.deepEqual(Object.keys(backend.inputRequests ?? {}), ['confirm']);
    const state = backend.requestState!;
    const before = reached().length;
    const sure = { inputResponses: { confirm: accept({ sure: 'yes' }) } };
    // Tampered: one character of the signed body changed.
    const [v, body, mac] = state.split('.');
    const flipped = body.slice(0, 10) + (body[10] === 'A' ? 'B' : 'A') + body.slice(11);
    await assert.rejects(call('rounds_wipe', { folder: 'a' }, { ...sure, requestState: `${v}.${flipped}.${mac}` }), refusedState);
    await assert.rejects(call('rounds_wipe', { folder: 'a' }, { ...sure, requestState: `${state}-TAMPERED` }), refusedState);
    // Minted for other arguments, or for another tool.
    const other = await call('rounds_wipe', { folder: '/' }, { ...sure, requestState: state });
    assert.equal(other.isError, true);
    assert.match(textOf(other), /given for another call/);
    const tool = await call('rounds_ask_name', {}, { ...sure, requestState: state });
    assert.equal(tool.isError, true);
    assert.match(textOf(tool), /given for another call/);
    assert.equal(reached().length, before);
    // Answered as asked: the approval is not asked again, and the backend completes.
    const done = await call('rounds_wipe', { folder: 'a' }, { ...sure, requestState: state });
    assert.equal(textOf(done), 'wiped a');
    assert.equal(reached().at(-1)?.state, 'wipe:a');
    // The same answer again: spent.
    const again = await call('rounds_wipe', { folder: 'a' }, { ...sure, requestState: state });
    assert.equal(again.isError, true);
    assert.match(textOf(again), /already sent, and one answer runs one round/);
    assert.equal(reached().length, before + 1);
  });

  it('passes the backend only the answers to what it asked in that round', async () => {
    const first = await round('rounds_ask_name');
    await call('rounds_ask_name', {}, { inputResponses: { user_name: accept({ name: 'Eve' }), step2: accept({ color: 'red' }), approve_call: accept({ approve: true }) }, requestState: first.requestState });
    assert.deepEqual(reached().at(-1)?.keys, ['user_name']);
  });

  it('refuses a round that embeds a request the protocol does not allow, an enormous one, and one with an enormous state', async () => {
    const foreign = await call('rounds_ask_foreign');
    assert.equal(foreign.isError, true, JSON.stringify(foreign));
    assert.match(textOf(foreign), /"tools\/call".*only elicitation\/create, sampling\/createMessage and roots\/list/);
    const huge = await call('rounds_ask_huge');
    assert.equal(huge.isError, true);
    assert.match(textOf(huge), /too large/);
    const state = await call('rounds_huge_state');
    assert.equal(state.isError, true);
    assert.match(textOf(state), /requestState .*too large/);
  });

  it('passes on only what the client declared: the backend is told so, and what it asks beyond is withheld', async () => {
    const declared = await round('rounds_ask_declared');
    assert.deepEqual(Object.keys(declared.inputRequests ?? {}), ['user_name']);
    assert.deepEqual(reached().at(-1)?.declared, { elicitation: { form: {} } });
    const everything = await round('rounds_ask_everything');
    assert.deepEqual(Object.keys(everything.inputRequests ?? {}), ['user_name']);
    // A link to open is not passed on (forms only): with nothing left to ask, the call says why.
    const link = await call('rounds_ask_link');
    assert.equal(link.isError, true);
    assert.match(textOf(link), /cannot answer|did not declare/);
  });

  it('stops a backend that keeps asking at the round limit', async () => {
    let answer: Answer = await round('rounds_ask_forever');
    let rounds = 1;
    while (answer.resultType === 'input_required' && rounds < 30) {
      // Paced below the gateway's rate limit: the round limit, not the rate limit, is what stops it.
      await new Promise((r) => setTimeout(r, 150));
      answer = await call('rounds_ask_forever', {}, { inputResponses: { more: accept({ name: 'x' }) }, requestState: answer.requestState });
      rounds++;
    }
    assert.equal(answer.isError, true);
    assert.match(textOf(answer), /still asked for input after 20 rounds/);
    assert.ok(rounds <= 21, `${rounds} rounds`);
  });

  it('relays a prompt\'s rounds too (prompts/get)', async () => {
    const first = (await client.getPrompt({ name: 'rounds_ask_context' }, { allowInputRequired: true } as never)) as unknown as Answer;
    assert.equal(first.resultType, 'input_required', JSON.stringify(first));
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['user_context']);
    const done = (await client.getPrompt({ name: 'rounds_ask_context', inputResponses: { user_context: accept({ context: 'tests' }) }, requestState: first.requestState } as never, { allowInputRequired: true } as never)) as unknown as Answer;
    assert.equal(done.messages?.[0]?.content.text, 'Context: tests');
    assert.equal(reached().at(-1)?.state, 'prompt-state');
    // A prompt's state is no call's: refused before any handler runs.
    await assert.rejects(call('rounds_ask_name', {}, { inputResponses: { user_context: accept({ context: 'x' }) }, requestState: first.requestState }), refusedState);
  });

  it('an SDK client that answers rounds itself gets forms, completions and roots relayed, and a complete result', async () => {
    const auto = new Client({ name: 'relay-auto', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    auto.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Bob' } }));
    auto.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'test', stopReason: 'endTurn' }));
    auto.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///client/root', name: 'Client root' }] }));
    await auto.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config], env: { PATH: process.env.PATH ?? '', HOME: folder.dir, XDG_STATE_HOME: path.join(folder.dir, 'state') }, stderr: 'pipe' }));
    try {
      assert.equal(textOf(await auto.callTool({ name: 'rounds_ask_name', arguments: {} })), 'Hello, Bob!');
      assert.equal(textOf(await auto.callTool({ name: 'rounds_ask_declared', arguments: {} })), 'Got: client_roots, greeting, user_name');
    } finally {
      await auto.close();
    }
  });
});
