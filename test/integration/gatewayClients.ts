import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from './cliRun';
import { EVERYTHING, FIXTURES } from './helpers';

/**
 * A folder of one test: the config, the CLI's state (audit, eras) and the fixtures' call logs. Made
 * at its first use: suites make theirs as mocha loads them, and a run that only lists the tests
 * (the runner's split of the files) would leave one behind for each.
 */
export function gatewayFolder(): { readonly dir: string; readonly calls: string; config(servers: Record<string, unknown>): string; called(): string[]; cleanup(): void } {
  let made: string | undefined;
  const dir = () => (made ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mth-gateway-')));
  const calls = () => path.join(dir(), 'calls.jsonl');
  return {
    get dir() {
      return dir();
    },
    get calls() {
      return calls();
    },
    config(servers) {
      const file = path.join(dir(), 'servers.json');
      fs.writeFileSync(file, JSON.stringify({ servers }));
      return file;
    },
    called: () => (fs.existsSync(calls()) ? fs.readFileSync(calls(), 'utf8').trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { tool: string }).tool) : []),
    // A gateway stopped just before writes its last audit lines as it exits: a removal that meets them tries again.
    cleanup: () => {
      if (made !== undefined) fs.rmSync(made, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

export const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
export const fixture = (file: string, env: Record<string, string> = {}) => ({ command: process.execPath, args: [path.join(FIXTURES, file)], env });

/** How the test's client answers an approval form; none: it does not declare elicitation. */
export type FormAnswer = (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean> };

function newClient(answer: FormAnswer | undefined, forms: string[]): Client {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = (request.params as { message: string }).message;
      forms.push(message);
      return answer(message);
    });
  }
  return client;
}

/** The official SDK client on `mcp-tool-host serve --config FILE` over stdio (a real child process). */
export async function stdioClient(config: string, stateDir: string, answer?: FormAnswer, extra: readonly string[] = [], env: Record<string, string> = {}): Promise<{ client: Client; forms: string[]; stderr: () => string; pid: number }> {
  const forms: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config, ...extra], env: { PATH: process.env.PATH ?? '', HOME: stateDir, XDG_STATE_HOME: path.join(stateDir, 'state'), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient(answer, forms);
  await client.connect(transport);
  return { client, forms, stderr: () => stderr, pid: transport.pid! };
}

/** The official SDK client on an HTTP gateway's URL, the token in the Authorization header. */
export async function httpClient(url: string, token: string, answer?: FormAnswer): Promise<{ client: Client; forms: string[] }> {
  const forms: string[] = [];
  const client = newClient(answer, forms);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return { client, forms };
}

/**
 * rule-tools' destructive write_file through the gateway, as both eras' asking tests check it: accepted,
 * it runs once after one form naming the call; declined, a tool error and nothing sent.
 */
export async function checkAsksForWrite(client: Client, forms: readonly string[], decline: () => void, called: () => string[]): Promise<void> {
  const ran = await client.callTool({ name: 'rules_write_file', arguments: { path: 'a.txt' } });
  assert.equal(textOf(ran), 'ran write_file');
  assert.equal(forms.length, 1);
  assert.match(forms[0], /"write_file" of server "rules"/);
  assert.match(forms[0], /destructive/);
  assert.match(forms[0], /Arguments: \{"path":"a\.txt"\}/);
  assert.deepEqual(called(), ['write_file']);
  decline();
  const declined = await client.callTool({ name: 'rules_write_file', arguments: { path: 'b.txt' } });
  assert.equal(declined.isError, true);
  assert.match(textOf(declined), /^Not run: the user did not allow this call \(decline\)/);
  assert.deepEqual(called(), ['write_file']);
}

/** The text of a tool result's first block. */
export const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? '');
