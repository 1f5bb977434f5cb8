import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');

/** The Markdown files people read: the README and the other top-level documents, and docs/. */
function documents(): string[] {
  const top = fs.readdirSync(ROOT).filter((f) => f.endsWith('.md')).map((f) => path.join(ROOT, f));
  const docs = fs.readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => path.join(DOCS, f));
  return [...top, ...docs];
}

/** A document's text without fenced code blocks and inline code, where `[x](y)` is not a link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** The anchors GitHub makes of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    found.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return found;
}

/** Every relative link target of a document (images included), as written. */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('documents link to what exists (README.md, docs/*.md)', () => {
  it('every relative link names an existing file, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const file of documents()) {
      const text = fs.readFileSync(file, 'utf8');
      for (const target of relativeLinks(text)) {
        const [pathPart, anchor] = target.split('#', 2);
        const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
        const where = `${path.relative(ROOT, file)}: (${target})`;
        if (!fs.existsSync(resolved)) {
          broken.push(`${where}: no file ${path.relative(ROOT, resolved)}`);
        } else if (anchor !== undefined && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${where}: no heading #${anchor} in ${path.relative(ROOT, resolved)}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the README links every document in docs/, and some document shows every picture there', () => {
    const readme = relativeLinks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).map((t) => path.normalize(t.split('#')[0]));
    const unlinked = fs.readdirSync(DOCS).filter((f) => f.endsWith('.md') && !readme.includes(path.join('docs', f)));
    assert.deepEqual(unlinked, [], 'docs/*.md the README does not link');
    const shown = documents().flatMap((file) => relativeLinks(fs.readFileSync(file, 'utf8')).map((t) => path.resolve(path.dirname(file), t)));
    const unshown = fs.readdirSync(DOCS).filter((f) => f.endsWith('.png') && !shown.includes(path.join(DOCS, f)));
    assert.deepEqual(unshown, [], 'pictures in docs/ that no document shows');
  });

  it('a link to a missing file or heading is found (the check can fail)', () => {
    assert.deepEqual(relativeLinks('[a](docs/x.md#y) ![b](pic.png) [c](https://x.org) `[d](e.md)`'), ['docs/x.md#y', 'pic.png']);
    assert.ok(anchors('# Headless CLI\n## Argument rules: `--rules` and `explain`\n## Exit codes\n## Exit codes\n').has('argument-rules---rules-and-explain'));
    assert.ok(anchors('## Exit codes\n## Exit codes\n').has('exit-codes-1'));
    assert.ok(!anchors('## Exit codes\n').has('exit-code'));
  });

  it('docs/settings.md names every setting, and docs/commands.md every command the palette shows', () => {
    interface Contributes {
      configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
      commands: { command: string; title: string }[];
      menus: { commandPalette?: { command: string; when?: string }[] };
    }
    const { contributes } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: Contributes };
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const settingsDoc = fs.readFileSync(path.join(DOCS, 'settings.md'), 'utf8');
    const settings = [contributes.configuration].flat().flatMap((c) => Object.keys(c.properties));
    assert.deepEqual(settings.filter((key) => !settingsDoc.includes(`\`${key}\``)), [], 'settings docs/settings.md does not name');
    const commandsDoc = fs.readFileSync(path.join(DOCS, 'commands.md'), 'utf8');
    const hidden = new Set((contributes.menus.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
    const titles = contributes.commands.filter((c) => !hidden.has(c.command)).map((c) => c.title.replace(/^%(.*)%$/, (_, key: string) => nls[key]));
    assert.deepEqual(titles.filter((title) => !commandsDoc.includes(title)), [], 'palette commands docs/commands.md does not name');
  });

  it('the README opens with the two commands CI and users run, and package.json has both scripts', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const firstBlock = /^```sh\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? '';
    assert.match(firstBlock, /^npm install && npm start\s+#/m);
    assert.match(firstBlock, /^npm test\s+#/m);
    assert.ok(readme.indexOf('```sh') < readme.indexOf('\n## '), 'the commands come before the first section');
    const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.ok(scripts.start && scripts.test);
  });
});
