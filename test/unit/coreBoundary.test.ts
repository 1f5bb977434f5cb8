import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

describe('house rules', () => {
  it('src/core and src/cli never import vscode', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.ts$/.test(e.name) && /from ['"]vscode['"]|require\(['"]vscode['"]\)/.test(fs.readFileSync(p, 'utf8'))) offenders.push(p);
      }
    };
    const root = path.resolve(__dirname, '../../../src');
    walk(path.join(root, 'core'));
    walk(path.join(root, 'cli'));
    assert.deepEqual(offenders, []);
  });
});
