import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_RESULT_FILES, ResultFolder, type ResultBudget } from '../../src/core/render/resultFolder';
import { resultFileType } from '../../src/core/render/resultFileName';

const KiB = 1024;
const DAY = 24 * 3600_000;

/** The results folder on a real disk: its budget, what it removes and what it never touches (issue 31). */
describe('a results folder held to a budget', () => {
  let dir: string;
  let budget: ResultBudget;
  const folder = (owns: 'folder' | 'run' = 'folder') => new ResultFolder(dir, () => budget, { owns, fullWhy: (max) => `full (${max} bytes)` });
  const files = () => fs.readdirSync(dir).sort();
  const bytes = () => files().reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
  const old = (name: string, days: number) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), Buffer.alloc(KiB));
    const when = new Date(Date.now() - days * DAY);
    fs.utimesSync(path.join(dir, name), when, when);
  };

  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-result-folder-')), 'results');
    budget = { maxBytes: 10 * KiB, maxAgeMs: 7 * DAY };
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it("one call over the budget: what fits is saved, the rest left out with the reason; the call's own files stay", async () => {
    const results = folder();
    const saved = [];
    for (let i = 0; i < 20; i++) saved.push(await results.saveBinary('call1', Buffer.alloc(KiB), 'image/png', `image-${i}`));
    assert.equal(saved.filter((s) => 'file' in s).length, 10);
    assert.deepEqual(saved.slice(10), Array(10).fill({ leftOut: `full (${10 * KiB} bytes)` }));
    for (const s of saved) if ('file' in s) assert.ok(fs.existsSync(s.file), `${s.file} is gone`);
    assert.equal(bytes(), 10 * KiB);
  });

  it('the next call makes room by removing the oldest files of earlier calls', async () => {
    const results = folder();
    for (let i = 0; i < 10; i++) await results.saveBinary('call1', Buffer.alloc(KiB), 'image/png', `a-${i}`);
    const [first] = files();
    const next = await results.saveBinary('call2', Buffer.alloc(3 * KiB), 'image/png', 'b');
    assert.ok('file' in next);
    assert.ok(!files().includes(first), 'the oldest went');
    assert.ok(bytes() <= 10 * KiB);
  });

  it('content larger than the whole budget is left out, and nothing is removed for it', async () => {
    const results = folder();
    await results.saveBinary('call1', Buffer.alloc(KiB), 'image/png', 'a');
    assert.deepEqual(await results.saveBinary('call2', Buffer.alloc(11 * KiB), 'image/png', 'b'), { leftOut: `full (${10 * KiB} bytes)` });
    assert.equal(files().length, 1);
  });

  it('files past the age limit go at the next save and at prune (at activation); a smaller budget is applied by prune', async () => {
    old('1-old.png', 30);
    old('2-recent.png', 1);
    await folder().saveBinary('call1', Buffer.alloc(KiB), 'image/png', 'a');
    assert.ok(!files().includes('1-old.png') && files().includes('2-recent.png'));
    old('3-old.bin', 8);
    budget = { maxBytes: 1 * KiB, maxAgeMs: 7 * DAY };
    await folder().prune();
    assert.equal(files().length, 1, files().join(', '));
    assert.ok(bytes() <= KiB);
  });

  it(`holds at most ${MAX_RESULT_FILES} files, however small`, async () => {
    budget = { maxBytes: 100 * KiB * KiB, maxAgeMs: 7 * DAY };
    const results = folder();
    let left = 0;
    for (let i = 0; i < MAX_RESULT_FILES + 5; i++) if ('leftOut' in (await results.saveBinary('flood', Buffer.alloc(1), 'image/png', `i-${i}`))) left++;
    assert.equal(files().length, MAX_RESULT_FILES);
    assert.equal(left, 5);
  });

  it("the user's folder (the CLI's --files): only this run's files count, and nothing is ever removed", async () => {
    old('theirs.png', 30);
    const results = folder('run');
    const saved = [];
    for (let i = 0; i < 12; i++) saved.push(await results.saveBinary('call1', Buffer.alloc(KiB), 'image/png', `i-${i}`));
    assert.equal(saved.filter((s) => 'file' in s).length, 10);
    assert.ok(files().includes('theirs.png'));
    await results.prune();
    assert.ok(files().includes('theirs.png'));
  });

  it('a long text over the budget: its head is saved, and how much of it', async () => {
    const saved = await folder().saveText('call1', ['é'.repeat(4 * KiB), 'x'.repeat(8 * KiB)], 'result');
    assert.ok('file' in saved);
    if (!('file' in saved)) return;
    assert.equal(saved.totalChars, 12 * KiB);
    assert.ok(saved.keptChars > 0 && saved.keptChars < saved.totalChars);
    const text = fs.readFileSync(saved.file, 'utf8');
    assert.equal(text.length, saved.keptChars);
    assert.ok(Buffer.byteLength(text) <= 10 * KiB);
  });

  it('a disk that refuses the save leaves the content out and says why; the call goes on', async () => {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(dir, 'a file where the folder should be');
    const saved = await folder().saveBinary('call1', Buffer.alloc(1), 'image/png', 'a');
    assert.ok('leftOut' in saved && /could not be written/.test(saved.leftOut), JSON.stringify(saved));
  });
});

describe('the extension of a saved result', () => {
  it('comes from our lists, never from the type: a type that runs scripts is saved as text, anything unknown as .bin', () => {
    const cases: [string, string, boolean][] = [
      ['image/png', 'png', false],
      ['IMAGE/JPEG; q=1', 'jpg', false],
      ['image/svg+xml', 'svg.txt', true],
      ['text/html; charset=utf-8', 'html.txt', true],
      ['application/xhtml+xml', 'xhtml.txt', true],
      ['application/rss+xml', 'xml.txt', true],
      ['text/javascript', 'js.txt', true],
      ['application/ld+json', 'json', false],
      ['application/exe', 'bin', false],
      ['x/bat', 'bin', false],
      ['image/../../evil', 'bin', false],
      ['', 'bin', false],
    ];
    for (const [mime, extension, inert] of cases) {
      const type = resultFileType(mime);
      assert.equal(type.extension, extension, mime);
      assert.equal(type.inert !== undefined, inert, mime);
    }
  });
});
