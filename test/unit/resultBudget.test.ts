import * as assert from 'node:assert/strict';
import { budgetedResultText } from '../../src/core/chat/modelResult';
import { readResult } from '../../src/core/chat/readResult';
import { boundedCount, cleanCut, DEFAULT_RESULT_TOKENS, fitResult, fitText, MEDIA_TOKENS, resultBudget } from '../../src/core/chat/resultBudget';
import { ResultStore } from '../../src/core/chat/resultStore';
import { renderResult } from '../../src/core/render/renderResult';
import { textTokens } from '../../src/core/search/toolTokens';

const count = (text: string) => boundedCount(text, textTokens);
const MiB = 1024 * 1024;
const isLoneHigh = (text: string) => /[\ud800-\udbff]$/.test(text);
const handleIn = (text: string) => /"(mcpres_[A-Za-z0-9_-]{24})"/.exec(text)?.[1];
const ok = (text: string, extra: { pieces?: string[]; media?: number } = {}) => ({ kind: 'ok' as const, durationMs: 1, result: { text, isError: false, files: [], ...extra } });
const read = (store: ResultStore, input: unknown, budget = 2_000) => readResult(store, input, () => budget, count, 'read_result');

describe('result budgets: what a model gets of a large result', () => {
  it('gives a result within the budget whole, and says nothing more', () => {
    const store = new ResultStore();
    const out = budgetedResultText(ok('a short answer'), { budget: 1_000, count, keep: (p) => store.put(p, { server: 's', tool: 't' }), readTool: 'read_result' });
    assert.equal(out.text, 'a short answer');
    assert.equal(out.handle, undefined);
    assert.equal(store.size.results, 0);
  });

  it('cuts 50 MiB of text to the budget in bounded time, with its size and a handle that reads every byte back', function () {
    this.timeout(60_000);
    const line = 'row 0123456789 abcdefghij klmnopqrst\n';
    const pieces: string[] = [];
    for (let made = 0; made < 50 * MiB; made += MiB) pieces.push(line.repeat(Math.ceil(MiB / line.length)).slice(0, MiB));
    const store = new ResultStore();
    const started = Date.now();
    const out = budgetedResultText(ok('', { pieces }), { budget: 2_000, count, keep: (p) => store.put(p, { server: 's', tool: 't' }), readTool: 'read_result' });
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.ok(out.fit?.cut);
    assert.ok(count(out.text) <= 2_000, `${count(out.text)} tokens`);
    assert.ok(out.fit!.text.head.endsWith('\n'), 'cut at a line break');
    assert.match(out.text, /budget of 2,000 tokens/);
    assert.match(out.text, /of about [\d,]+ tokens, 52,428,800 characters/);
    const handle = handleIn(out.text)!;
    assert.equal(out.handle, handle);
    // Page to the end: the pages put together are the whole result, byte for byte.
    const got: string[] = [out.fit!.text.head];
    let offset = out.fit!.text.head.length;
    for (let i = 0; i < 3; i++) {
      const page = read(store, { handle, offset });
      const body = page.slice(0, page.lastIndexOf('\n[Characters '));
      assert.ok(count(page) <= 2_000);
      got.push(body);
      offset += body.length;
    }
    assert.equal(got.join(''), pieces.join('').slice(0, offset));
    const last = read(store, { handle, offset: 50 * MiB - 10 });
    assert.match(last, /the end of the result/);
  });

  it('holds a million tiny content items in a few chunks, and counts them fast', async function () {
    this.timeout(60_000);
    const content = Array.from({ length: 1_000_000 }, (_, i) => ({ type: 'text' as const, text: String(i % 10) }));
    const result = await renderResult({ content });
    const store = new ResultStore();
    const started = Date.now();
    const out = budgetedResultText({ kind: 'ok', durationMs: 1, result }, { budget: 1_000, count, keep: (p) => store.put(p, { server: 's', tool: 't' }), readTool: 'read_result' });
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.ok(out.fit?.cut && out.handle);
    assert.equal(store.size.chars, 1_999_999);
    assert.match(read(store, { handle: out.handle, pattern: '7', limit: 1, offset: 1_999_000 }), /> 999508\| 7 {3}\(offset 1999014\)/);
  });

  it('counts each image at a fixed cost, whatever its size, and a giant one fast', async () => {
    const giant = Buffer.alloc(20 * MiB, 1).toString('base64');
    const result = await renderResult({ content: [{ type: 'image', mimeType: 'image/png', data: giant }, { type: 'text', text: 'caption' }] });
    assert.equal(result.media, 1);
    const fit = fitResult(result, 10_000, count);
    assert.equal(fit.mediaTokens, MEDIA_TOKENS);
    assert.equal(fit.cut, false);
    // Six images leave the text a quarter of the budget; the note says what they were counted at.
    const text = 'word '.repeat(5_000);
    const many = fitResult({ text, media: 6 }, 10_000, count);
    assert.ok(many.cut && many.text.headTokens <= 2_500);
    const store = new ResultStore();
    const out = budgetedResultText(ok(text, { media: 6 }), { budget: 10_000, count, keep: (p) => store.put(p, { server: 's', tool: 't' }), readTool: 'read_result' });
    assert.match(out.text, /6 image\(s\) or audio clip\(s\) counted at 1,600 tokens each/);
  });

  it('counts an embedded resource by its text', async () => {
    const result = await renderResult({ content: [{ type: 'resource', resource: { uri: 'file:///big.txt', mimeType: 'text/plain', text: 'lorem ipsum '.repeat(20_000) } }] });
    const fit = fitResult(result, 1_000, count);
    assert.ok(fit.cut && fit.totalTokens > 20_000);
  });

  it('never cuts a surrogate pair, and counts zero-width characters as the text they are', () => {
    for (const unit of ['😀', 'a😀', '\u200b😀\u200d', '👩‍👩‍👧']) {
      const text = unit.repeat(20_000);
      const fit = fitText([text], 700, count);
      assert.ok(fit.cut);
      assert.ok(!isLoneHigh(fit.head), `lone surrogate after ${JSON.stringify(unit)}`);
      assert.ok(fit.headTokens <= 700);
    }
    assert.equal(cleanCut('ab😀', 3), 'ab');
    const store = new ResultStore();
    const handle = store.put(['😀'.repeat(100)], { server: 's', tool: 't' })!;
    const page = read(store, { handle, offset: 51, length: 4 });
    assert.ok(page.startsWith('😀😀'), 'an offset inside a pair starts at the pair');
  });

  it('counts a long run without spaces in bounded time, never short of the true count', function () {
    this.timeout(20_000);
    const started = Date.now();
    const fit = fitText(['a'.repeat(50 * MiB)], 10_000, count);
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
    assert.ok(fit.cut && fit.headTokens <= 10_000);
    for (const text of ['a'.repeat(3_000), '😀'.repeat(700), '\u200b'.repeat(1_500)]) assert.ok(count(text) >= textTokens(text));
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(2_000);
    assert.equal(count(prose), textTokens(prose));
  });

  it('takes a tool\'s budget before its server\'s, and never lets a workspace raise it', () => {
    const user = { source: 'user' as const, resultTokens: 50_000, toolResultTokens: { big: 200_000 } };
    assert.equal(resultBudget(user, 'big', DEFAULT_RESULT_TOKENS), 200_000);
    assert.equal(resultBudget(user, 'other', DEFAULT_RESULT_TOKENS), 50_000);
    assert.equal(resultBudget(undefined, 'x', DEFAULT_RESULT_TOKENS), DEFAULT_RESULT_TOKENS);
    const workspace = { ...user, source: 'workspace' as const };
    assert.equal(resultBudget(workspace, 'big', DEFAULT_RESULT_TOKENS), DEFAULT_RESULT_TOKENS);
    assert.equal(resultBudget({ source: 'workspace', resultTokens: 2_000 }, 'x', DEFAULT_RESULT_TOKENS), 2_000);
    assert.equal(resultBudget({ source: 'user', toolResultTokens: { constructor: 5 } }, 'toString', 3_000), 3_000);
  });
});

describe('result budgets: read_result against a hostile model', () => {
  const store = new ResultStore();
  const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i + 1}: ${i === 4_321 ? 'the NEEDLE is here' : 'hay'}`).join('\n');
  const handle = store.put([lines.slice(0, 70_000), lines.slice(70_000)], { server: 's', tool: 't' })!;

  it('refuses forged, foreign and malformed handles with a sentence', () => {
    assert.match(read(store, { handle: 'mcpres_AAAAAAAAAAAAAAAAAAAAAAAA' }), /no result "mcpres_A+" in this window/);
    assert.match(read(store, { handle: '../../etc/passwd' }), /must be the handle a cut result named/);
    assert.match(read(store, { handle: 42 }), /must be the handle/);
    assert.match(read(store, 'x'), /needs an object/);
    assert.notEqual(handle, new ResultStore().put(['x'], { server: 's', tool: 't' }));
  });

  it('refuses a negative, fractional or huge offset and a bad length, saying the range', () => {
    assert.match(read(store, { handle, offset: -1 }), /"offset" must be a whole number from 0 to \d+/);
    assert.match(read(store, { handle, offset: 1e300 }), /"offset" must be a whole number/);
    assert.match(read(store, { handle, offset: 1.5 }), /"offset" must be a whole number/);
    assert.match(read(store, { handle, length: -5 }), /"length" must be a whole number/);
    assert.match(read(store, { handle, offset: lines.length }), /end of the result/);
  });

  it('finds lines across chunk boundaries, with context, ignoring ASCII case', () => {
    const found = read(store, { handle, pattern: 'needle', context: 1 });
    assert.match(found, /1 line\(s\) contain "needle"/);
    assert.match(found, / {2}4321\| line 4321: hay\n> 4322\| line 4322: the NEEDLE is here {3}\(offset \d+\)\n {2}4323\| line 4323: hay/);
    const at = lines.indexOf('line 2000:');
    const across = new ResultStore();
    const h = across.put([lines.slice(0, at + 3), lines.slice(at + 3)], { server: 's', tool: 't' })!;
    assert.match(read(across, { handle: h, pattern: 'LINE 2000:', context: 0 }), /> 2000\| line 2000: hay/);
  });

  it('pages through many matches and stops within the budget', () => {
    const first = read(store, { handle, pattern: 'hay', limit: 3, context: 0 });
    assert.match(first, /3 line\(s\) contain "hay".*"offset": (\d+)/);
    const next = Number(/"offset": (\d+)/.exec(first)![1]);
    assert.match(read(store, { handle, pattern: 'hay', limit: 1, offset: next, context: 0 }), /> 4\| line 4: hay/);
    assert.ok(count(read(store, { handle, pattern: 'line', limit: 100, context: 5 }, 600)) <= 600);
  });

  it('takes a catastrophic regular expression as plain text, in linear time', () => {
    const evil = new ResultStore();
    const h = evil.put(['a'.repeat(5 * MiB) + '!'], { server: 's', tool: 't' })!;
    const started = Date.now();
    assert.match(read(evil, { handle: h, pattern: '(a+)+$' }), /No line contains "\(a\+\)\+\$"/);
    assert.match(read(evil, { handle: h, pattern: 'a!' }), /1 line\(s\) contain "a!"/);
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
    assert.match(read(evil, { handle: h, pattern: 'x'.repeat(201) }), /1 to 200 characters/);
    assert.match(read(evil, { handle: h, pattern: '' }), /1 to 200 characters/);
  });

  it('forgets the least recently used result first under its size cap, and says a forgotten one expired', () => {
    const small = new ResultStore({ maxChars: 100, maxResults: 10 });
    const a = small.put(['a'.repeat(40)], { server: 's', tool: 't' })!;
    const b = small.put(['b'.repeat(40)], { server: 's', tool: 't' })!;
    assert.ok(read(small, { handle: a }).startsWith('a'));
    small.put(['c'.repeat(40)], { server: 's', tool: 't' });
    assert.match(read(small, { handle: b }), /has expired/);
    assert.ok(read(small, { handle: a }).startsWith('a'));
    assert.equal(small.put(['d'.repeat(101)], { server: 's', tool: 't' }), undefined, 'a result larger than the store is not kept');
    assert.ok(small.size.chars <= 100);
  });

  it("binds a gateway client's result to it: another client's handle is unknown, and the parts left out count toward the cap", () => {
    const store = new ResultStore({ maxChars: 100, maxResults: 10 }, { here: 'for this client', valid: 'to the client connection whose call produced it' });
    const mine = store.put(['m'.repeat(30)], { server: 's', tool: 't', client: 'A' }, { blocks: new Map([[1, { type: 'image' }]]), chars: 30 })!;
    assert.equal(store.size.chars, 60);
    const other = readResult(store, { handle: mine }, () => 2_000, count, 'read-result', 'B');
    assert.match(other, /^Not read: there is no result "mcpres_[A-Za-z0-9_-]{24}" for this client\./);
    assert.ok(readResult(store, { handle: mine }, () => 2_000, count, 'read-result', 'A').startsWith('m'));
    store.put(['n'.repeat(50)], { server: 's', tool: 't', client: 'B' });
    assert.match(readResult(store, { handle: mine }, () => 2_000, count, 'read-result', 'A'), /has expired \(newer results took its place\)/);
    assert.match(readResult(store, { handle: mine }, () => 2_000, count, 'read-result', 'B'), /there is no result/, 'another client is not told it existed');
  });
});
