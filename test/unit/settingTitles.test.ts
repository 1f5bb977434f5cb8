import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The title VS Code's Settings editor makes of a setting's key (settingsTreeModels.ts `wordifyKey`,
 * as code-server 4.139 ships it): dots become " › ", camelCase splits into words, the first letter
 * goes up, a few known acronyms go up whole. "maxMessageMiB" came out as "Max Message Mi B" (issue 32).
 */
function wordifyKey(key: string): string {
  const acronyms = new Set(['css', 'html', 'scss', 'less', 'json', 'js', 'ts', 'ie', 'id', 'php', 'scm']);
  return key
    .replace(/\.([a-z0-9])/g, (_, c: string) => ` \u203A ${c.toUpperCase()}`)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]{1,})([A-Z][a-z])/g, '$1 $2')
    .replace(/^[a-z]/g, (c) => c.toUpperCase())
    .replace(/\b\w+\b/g, (w) => (acronyms.has(w.toLowerCase()) ? w.toUpperCase() : w));
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { deprecationMessage?: string; markdownDeprecationMessage?: string }> } };
};
const settings = Object.entries(manifest.contributes.configuration.properties);
const nls = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<string, string>;
const localized = (text: string) => text.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? text);

describe('setting titles in the Settings editor', () => {
  it('reproduces the title VS Code made of the old key: "Max Message Mi B"', () => {
    assert.equal(wordifyKey('maxMessageMiB'), 'Max Message Mi B');
  });

  it('no current setting splits into a lone letter (deprecated old names are hidden unless set)', () => {
    const bad = settings
      .filter(([, schema]) => !schema.deprecationMessage && !schema.markdownDeprecationMessage)
      .map(([key]) => ({ key, title: wordifyKey(key.replace(/^mcpToolHost\./, '')) }))
      .filter(({ title }) => title.split(/[\s\u203A]+/).some((word) => /^[A-Z]$/.test(word)));
    assert.deepEqual(bad, []);
  });

  it('every deprecated setting names the setting that replaces it, and that one exists', () => {
    for (const [key, schema] of settings) {
      const raw = schema.markdownDeprecationMessage ?? schema.deprecationMessage;
      if (!raw) continue;
      const message = localized(raw);
      const named = /#(mcpToolHost\.[\w.]+)#/.exec(message)?.[1];
      assert.ok(named && settings.some(([k]) => k === named), `${key}: "${message}"`);
    }
  });
});
