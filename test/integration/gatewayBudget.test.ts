import * as assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { startHttpGateway } from '../../src/core/gateway/later';
import { textTokens } from '../../src/core/search/later';
import { fixture, gatewayFolder, httpClient, stdioClient, textOf } from './gatewayClients';
import { runCli } from './cliRun';
import { makeHost } from './helpers';

const LINES = 20_000;
const logLine = (i: number) => `entry ${i}: ${i === 12_345 ? 'the NEEDLE is here' : 'all quiet on this line'}`;
const wholeLog = Array.from({ length: LINES }, (_, i) => logLine(i + 1)).join('\n');
const handleOf = (text: string) => /handle "(mcpres_[A-Za-z0-9_-]{24})"/.exec(text)?.[1];
type Block = { type: string; text?: string; data?: string; resource?: { blob?: string } };
const blocks = (result: unknown) => (result as { content: Block[] }).content;

/** Pages through a kept result with the read tool until its end; the text read. */
async function readAll(client: Client, handle: string, from: number): Promise<string> {
  let text = '';
  for (let offset = from, pages = 0; pages < 200; pages++) {
    const page = textOf(await client.callTool({ name: 'read-result', arguments: { handle, offset } }));
    const end = /\n\[Characters [\d,]+ to ([\d,]+) of [\d,]+(\.|: the end)/.exec(page);
    assert.ok(end, page.slice(-300));
    text += page.slice(0, end.index);
    offset = Number(end[1].replace(/,/g, ''));
    if (end[2] !== '.') return text;
  }
  throw new Error('more than 200 pages');
}

describe('gateway: results sized by the result budget, the rest read through read-result (official SDK client on serve)', function () {
  this.timeout(120_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());
  const config = (extra: Record<string, unknown> = {}) => folder.config({ huge: { ...fixture('huge-result.cjs'), ...extra }, heavy: fixture('heavy-parts.cjs') });

  it('a result over the default budget gives its head, its size and a handle; read-result searches it and reads every byte of the rest', async () => {
    const { client } = await stdioClient(config(), folder.dir);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('read-result') && names.includes('huge_log'), names.join(', '));
      const result = await client.callTool({ name: 'huge_log', arguments: { lines: LINES, needle: 12_345 } });
      const text = textOf(result);
      assert.ok(textTokens(text) <= 10_000, `${textTokens(text)} tokens reached the model`);
      assert.ok(text.startsWith(`${logLine(1)}\n${logLine(2)}\n`), text.slice(0, 100));
      assert.match(text, /\[The host cut this result to fit its budget of 10,000 tokens: shown are characters 0 to ([\d,]+) \(([\d,]+) tokens\) of about [\d,]+ tokens, 708,889 characters\. The whole result is kept as handle "mcpres_[A-Za-z0-9_-]{24}": call read-result with/);
      const handle = handleOf(text)!;
      const headChars = Number(/characters 0 to ([\d,]+)/.exec(text)![1].replace(/,/g, ''));
      const found = textOf(await client.callTool({ name: 'read-result', arguments: { handle, pattern: 'needle', context: 0 } }));
      assert.match(found, /^1 line\(s\) contain "needle"/);
      assert.match(found, /> 12345\| entry 12345: the NEEDLE is here/);
      assert.equal(text.slice(0, headChars) + (await readAll(client, handle, headChars)), wholeLog);
    } finally {
      await client.close();
    }
  });

  it("a server's resultTokens in the config sets its budget; --result-tokens sets the default; off passes results whole and offers no read-result", async () => {
    const small = await stdioClient(config({ resultTokens: 1_000 }), folder.dir);
    try {
      const text = textOf(await small.client.callTool({ name: 'huge_log', arguments: { lines: LINES } }));
      assert.ok(textTokens(text) <= 1_000, `${textTokens(text)} tokens`);
      assert.match(text, /budget of 1,000 tokens/);
    } finally {
      await small.client.close();
    }
    const flag = await stdioClient(config(), folder.dir, undefined, ['--result-tokens', '2000']);
    try {
      assert.match(textOf(await flag.client.callTool({ name: 'huge_log', arguments: { lines: LINES } })), /budget of 2,000 tokens/);
    } finally {
      await flag.client.close();
    }
    const off = await stdioClient(config(), folder.dir, undefined, ['--result-tokens', 'off']);
    try {
      assert.ok(!(await off.client.listTools()).tools.some((t) => t.name === 'read-result'));
      assert.equal(textOf(await off.client.callTool({ name: 'huge_log', arguments: { lines: LINES, needle: 12_345 } })), wholeLog);
      const unknown = await off.client.callTool({ name: 'read-result', arguments: { handle: 'mcpres_AAAAAAAAAAAAAAAAAAAAAAAA' } }).catch((err: Error) => err);
      assert.match(String(unknown), /Unknown tool/);
    } finally {
      await off.client.close();
    }
    const bad = await runCli(['serve', '--config', config(), '--result-tokens', '12'], { env: { PATH: process.env.PATH ?? '', HOME: folder.dir } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--result-tokens must be a whole number of tokens from 500 to 1000000, or off, not "12"/);
  });

  it('images count at a fixed cost each: those that fit are shown, the others are left out and read-result hands each over whole', async () => {
    const { client } = await stdioClient(config(), folder.dir);
    try {
      const result = await client.callTool({ name: 'heavy_pictures', arguments: { count: 10 } });
      const content = blocks(result);
      const images = content.filter((b) => b.type === 'image');
      assert.equal(images.length, 4, JSON.stringify(content.map((b) => b.type)));
      const text = content[0].text!;
      assert.match(text, /Shown after this text: content block\(s\) 1 \(image\), 2 \(image\), 3 \(image\), 4 \(image\), at 1,600 tokens each\./);
      assert.match(text, /Left out: content block\(s\) 5 \(image, 1,600 tokens\), .*10 \(image, 1,600 tokens\); read one with \{"handle": "mcpres_[A-Za-z0-9_-]{24}", "part": 5\}/);
      const handle = handleOf(text)!;
      const part = blocks(await client.callTool({ name: 'read-result', arguments: { handle, part: 9 } }));
      assert.deepEqual(part, [{ type: 'image', mimeType: 'image/png', data: Buffer.from('picture number 8 '.repeat(40)).toString('base64') }]);
      const wrong = await client.callTool({ name: 'read-result', arguments: { handle, part: 2 } });
      assert.equal(wrong.isError, true);
      assert.match(textOf(wrong), /"part" must be the number of a content block the cut result named as left out: 5, 6, 7, 8, 9, 10/);
    } finally {
      await client.close();
    }
  });

  it('an embedded binary resource counts by its base64; a cut structured result keeps to what an output-schema client accepts', async () => {
    const { client } = await stdioClient(config(), folder.dir);
    try {
      const archive = blocks(await client.callTool({ name: 'heavy_archive', arguments: { kib: 64 } }));
      assert.deepEqual(archive.map((b) => b.type), ['text']);
      assert.match(archive[0].text!, /Left out: content block\(s\) 1 \(binary resource, 43,692 tokens\)/);
      const blob = blocks(await client.callTool({ name: 'read-result', arguments: { handle: handleOf(archive[0].text!), part: 1 } }));
      assert.equal(blob[0].resource?.blob, Buffer.alloc(64 * 1024, 7).toString('base64'));
      // The official client checks a result against the tool's output schema unless it is an error: a cut one has no structured content.
      const report = await client.callTool({ name: 'heavy_report', arguments: { rows: 5_000 } });
      assert.equal(report.isError, true);
      assert.equal(report.structuredContent, undefined);
      assert.ok(textTokens(textOf(report)) <= 10_000);
      assert.match(textOf(report), /^\{\n {2}"rows": \[\n/);
      assert.match(textOf(report), /The whole result is kept as handle/);
    } finally {
      await client.close();
    }
  });
});

describe('gateway over HTTP: a kept result belongs to the client whose call produced it', function () {
  this.timeout(60_000);
  const host = makeHost({ huge: fixture('huge-result.cjs') });
  after(() => host.close());

  it("a client that learns another client's handle reads nothing of it, told only that there is no such result", async () => {
    const gateway = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', clientVersion: 'test', resultTokens: () => 1_000 });
    const victim = await httpClient(gateway.url, gateway.token);
    const attacker = await httpClient(gateway.url, gateway.token);
    try {
      const handle = handleOf(textOf(await victim.client.callTool({ name: 'huge_log', arguments: { lines: 2_000, needle: 7 } })))!;
      assert.ok(handle);
      for (const args of [{ handle, offset: 0 }, { handle, pattern: 'NEEDLE' }, { handle, part: 0 }]) {
        const stolen = await attacker.client.callTool({ name: 'read-result', arguments: args });
        assert.equal(stolen.isError, true);
        assert.equal(textOf(stolen), `Not read: there is no result "${handle}" for this client. A handle is valid only to the client connection whose call produced it, until newer results take its place; call the tool again.`);
      }
      assert.match(textOf(await victim.client.callTool({ name: 'read-result', arguments: { handle, pattern: 'NEEDLE' } })), /entry 7: the NEEDLE is here/);
    } finally {
      await victim.client.close();
      await attacker.client.close();
      await gateway.close();
    }
  });
});
