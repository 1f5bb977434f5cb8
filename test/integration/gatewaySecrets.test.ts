import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sanitizeText } from '../../src/core/render/sanitize';
import { MASK } from '../../src/core/render/secrets';
import { CLI, runCli } from './cliRun';
import { gatewayFolder, textOf } from './gatewayClients';
import { FIXTURES } from './helpers';

const SECRET = 'sk-supersecret-0123456789';

/** Every string in a value, its keys too. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}

/** A text with its JSON escapes of characters (`\\u001b` written out, as JSON printed into a text has them) read back. */
const unescaped = (s: string) => s.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * The strings of `value` that give the secret away: as it is, once sanitised, once every format or
 * ignorable character is out, or once the escapes of JSON printed into it are read back and sanitised.
 */
const leaks = (value: unknown) => stringsOf(value).filter((s) => [s, sanitizeText(s), s.replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, ''), sanitizeText(unescaped(s))].some((t) => t.includes(SECRET)));

/** What the test's client was sent during calls: each form's and each sampling request's params. */
interface Seen {
  forms: Record<string, unknown>[];
  samples: Record<string, unknown>[];
}

/**
 * The official SDK client on `mcp-tool-host serve` over stdio, declaring forms and sampling, with the
 * fixture `spills-secrets.cjs` as server "spill": its secret given as `${input:token}` (from the environment).
 */
async function servedClient(dir: string): Promise<{ client: Client; seen: Seen; stderr: () => string }> {
  const seen: Seen = { forms: [], samples: [] };
  const client = new Client({ name: 'gateway-secrets-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler('elicitation/create', async (request) => {
    seen.forms.push(request.params as Record<string, unknown>);
    return { action: 'accept', content: { plan: 'b' } };
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    seen.samples.push(request.params as Record<string, unknown>);
    return { role: 'assistant', content: { type: 'text', text: 'Hi from the model' }, model: 'test-model', stopReason: 'endTurn' };
  });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', configFile(dir)], env: environment(dir), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  return { client, seen, stderr: () => stderr };
}

function configFile(dir: string): string {
  const file = path.join(dir, 'spill.json');
  const spill = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [path.join(FIXTURES, 'spills-secrets.cjs')], env: { API_TOKEN: '${input:token}', ...env } });
  fs.writeFileSync(file, JSON.stringify({ servers: { spill: spill(), spillnew: spill({ MODERN: '1' }) }, inputs: [{ id: 'token', type: 'promptString', password: true }] }));
  return file;
}

const environment = (dir: string) => ({ PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: path.join(dir, 'state'), MCP_TOOL_HOST_INPUT_TOKEN: SECRET });

describe("gateway: a server's secret reaches its client in no form (mcp-tool-host serve, call --json)", function () {
  this.timeout(90_000);
  const folder = gatewayFolder();
  let served: Awaited<ReturnType<typeof servedClient>>;
  before(async () => {
    served = await servedClient(folder.dir);
  });
  after(async () => {
    await served?.client.close();
    folder.cleanup();
  });

  it('masks a secret split by a zero-width space, soft hyphen, BOM, tag character or escape in the result passed on: its text, structuredContent (keys too) and embedded resource', async () => {
    const result = await served.client.callTool({ name: 'spill_split', arguments: {} });
    assert.ok(textOf(result).startsWith(`whole ${MASK}; split `), `the server did send the secret: ${textOf(result)}`);
    assert.deepEqual(leaks(result), []);
    const structured = (result as { structuredContent?: Record<string, unknown> }).structuredContent;
    assert.deepEqual(structured, { token: MASK, list: [MASK, { inner: MASK }], escaped: MASK, [`key-${MASK}`]: 'a key named for it' }, 'structuredContent is passed on, masked, its keys too');
  });

  it('masks it in the JSON `call --json` prints', async () => {
    const called = await runCli(['call', 'spill', 'split', '--json', '--config', configFile(folder.dir)], { env: environment(folder.dir) });
    assert.equal(called.code, 0, called.stderr);
    const printed = JSON.parse(called.stdout) as unknown;
    assert.deepEqual(leaks(printed), [], called.stdout);
    assert.ok(called.stdout.includes(MASK), called.stdout);
  });

  /** The server of each era: the 2026-07-28 one asks in an input_required round, which the gateway answers by asking its client. */
  const ERAS = { '2025': 'spill', '2026-07-28': 'spillnew' } as const;

  for (const [era, server] of Object.entries(ERAS)) {
    it(`masks it in every string of a form a ${era} server asks during a call: titles, descriptions, enum values and names, oneOf, defaults, property names; the client's answer goes back`, async () => {
      served.seen.forms.length = 0;
      const answer = JSON.parse(textOf(await served.client.callTool({ name: `${server}_form`, arguments: {} }))) as { answer?: unknown; error?: unknown };
      assert.deepEqual(answer, { answer: { action: 'accept', content: { plan: 'b' } } });
      assert.equal(served.seen.forms.length, 1);
      assert.deepEqual(leaks(served.seen.forms[0]), []);
      const schema = served.seen.forms[0].requestedSchema as { properties: Record<string, { title?: string; enum?: string[] }> };
      assert.equal(schema.properties.plan.title, `Plan ${MASK}`, 'the form is passed on, masked, not dropped');
      assert.deepEqual(schema.properties.plan.enum, [`a-${MASK}`, 'b']);
      assert.ok(`field-${MASK}` in schema.properties, Object.keys(schema.properties).join(', '));
    });

    it(`masks it in every string of a sampling request a ${era} server makes during a call: messages, system prompt, stop sequences, metadata, model hints`, async () => {
      served.seen.samples.length = 0;
      const answer = JSON.parse(textOf(await served.client.callTool({ name: `${server}_sample`, arguments: {} }))) as { answer?: { model?: string } };
      assert.equal(answer.answer?.model, 'test-model', JSON.stringify(answer));
      assert.equal(served.seen.samples.length, 1);
      assert.deepEqual(leaks(served.seen.samples[0]), []);
      const params = served.seen.samples[0] as { stopSequences?: string[]; metadata?: { key?: string } };
      assert.deepEqual(params.stopSequences, [MASK, MASK]);
      assert.equal(params.metadata?.key, MASK);
    });

    it(`refuses, saying why, a form or a sampling request of a ${era} server nested too deep to be checked for the secret: the client is not asked`, async () => {
      served.seen.forms.length = 0;
      served.seen.samples.length = 0;
      // A 2025 server's form is read by the SDK to the spec's schema, which keeps no key of its own, deep or not: it never gets here too deep.
      const refused = era === '2025' ? ['deep_sample'] : ['deep_form', 'deep_sample'];
      for (const tool of refused.map((name) => `${server}_${name}`)) {
        const result = await served.client.callTool({ name: tool, arguments: {} });
        assert.match(textOf(result), /nests deeper than \d+ levels, too deep to be checked for the server's secrets/, `${tool}: ${JSON.stringify(result)}`);
        assert.deepEqual(leaks(result), []);
      }
      assert.deepEqual([served.seen.forms.length, served.seen.samples.length], [0, 0]);
      if (era === '2025') {
        await served.client.callTool({ name: `${server}_deep_form`, arguments: {} });
        assert.equal(served.seen.forms.length, 1);
        assert.deepEqual(leaks(served.seen.forms), []);
      }
    });
  }

  it('says none of it on its own stderr either', () => {
    assert.deepEqual(leaks(served.stderr().split('\n')), []);
  });
});
