import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../..');

/** The messages our lint config gives `text` as if it were the file `file`. */
async function lint(file: string, text: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(text, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint holds the layers (eslint/layerRules.mjs, eslint.config.mjs)', function () {
  this.timeout(60_000);

  it('a lower core folder may not import a higher one, type imports included', async () => {
    assert.deepEqual(await lint('src/core/render/bait.ts', "import type { CallOutcome } from '../calls/callPipeline';\nexport type X = CallOutcome;\n"), [
      'local/layers: src/core/calls/callPipeline.ts: src/core/render may import only the folders below it (eslint.config.mjs CORE_LAYERS).',
    ]);
    assert.deepEqual(await lint('src/core/calls/bait.ts', "import { sanitizeLine } from '../render/sanitize';\nexport const x = sanitizeLine;\n"), []);
  });

  for (const [base, list, outside] of [['src/core', 'CORE_LAYERS', undefined], ['src/vscode', 'VSCODE_LAYERS', undefined]] as const) {
    it(`every folder of ${base} is in exactly one layer of ${list}, so a new folder cannot slip past the layers`, async () => {
      const config = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as Record<string, string[][] | string[]>;
      const listed = [...(config[list] as string[][]).flat(), ...(outside ? (config[outside] as string[]) : [])];
      const folders = fs.readdirSync(path.join(ROOT, base), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
      const missing = folders.filter((f) => !listed.includes(f));
      assert.deepEqual(missing, [], `${base} folders in no layer of eslint.config.mjs ${list}: ${missing.join(', ')}`);
      const gone = listed.filter((f) => !folders.includes(f));
      assert.deepEqual(gone, [], `eslint.config.mjs ${list} names folders ${base} does not have: ${gone.join(', ')}`);
      const twice = listed.filter((f, i) => listed.indexOf(f) !== i);
      assert.deepEqual(twice, [], `folders in two layers: ${twice.join(', ')}`);
    });
  }

  it('src/vscode: every file is in a room; a room imports only the rooms below it, and never the lazy bundles (src/extension.ts hands it the loader)', async () => {
    assert.deepEqual(await lint('src/vscode/bait.ts', 'export const x = 1;\n'), [
      'local/layers: src/vscode/bait.ts stands outside every folder of src/vscode: put it in a room, a folder in a row of VSCODE_LAYERS in eslint.config.mjs.',
    ]);
    assert.deepEqual(await lint('src/vscode/newroom/bait.ts', 'export const x = 1;\n'), [
      'local/layers: src/vscode/newroom is in no layer: put it in a room, a folder in a row of VSCODE_LAYERS in eslint.config.mjs.',
    ]);
    assert.deepEqual(await lint('src/vscode/tree/bait.ts', "import { loadForms } from '../lazy/load';\nexport const x = loadForms;\n"), [
      'local/layers: src/vscode/lazy/load.ts: src/vscode/tree may import only the folders below it (eslint.config.mjs VSCODE_LAYERS).',
    ]);
    assert.deepEqual(await lint('src/vscode/shared/bait.ts', "import type { CallToolDeps } from '../calls/callToolCommand';\nexport type X = CallToolDeps;\n"), [
      'local/layers: src/vscode/calls/callToolCommand.ts: src/vscode/shared may import only the folders below it (eslint.config.mjs VSCODE_LAYERS).',
    ]);
    assert.deepEqual(await lint('src/vscode/calls/bait.ts', "import { showReadOnly } from '../shared/readOnlyDocuments';\nexport const x = showReadOnly;\n"), []);
  });

  it('a file in a core folder no layer names is a lint error, naming the folder', async () => {
    assert.deepEqual(await lint('src/core/newroom/bait.ts', 'export const x = 1;\n'), [
      'local/layers: src/core/newroom is in no layer: add it to a row of CORE_LAYERS in eslint.config.mjs.',
    ]);
    assert.deepEqual(await lint('src/core/search/bait.ts', 'export const x = 1;\n'), []);
  });

  it('tool search (core/search) may not import the pipeline above it', async () => {
    assert.deepEqual(await lint('src/core/search/bait.ts', "import type { CallOutcome } from '../calls/callPipeline';\nexport type X = CallOutcome;\n"), [
      'local/layers: src/core/calls/callPipeline.ts: src/core/search may import only the folders below it (eslint.config.mjs CORE_LAYERS).',
    ]);
  });

  it('the core never imports vscode, the adapters or the CLI; the adapters not each other', async () => {
    assert.match((await lint('src/core/tools/bait.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n")).join('\n'), /no-restricted-imports/);
    assert.match((await lint('src/core/tools/bait.ts', "import { SECTION } from '../../vscode/shared/section';\nexport const x = SECTION;\n")).join('\n'), /src\/core is used by the adapters, never the other way/);
    assert.match((await lint('src/cli/bait.ts', "import { SECTION } from '../vscode/shared/section';\nexport const x = SECTION;\n")).join('\n'), /share only src\/core/);
  });

  it('what a core folder loads later is reached through its loader: the door and what it exports are imported elsewhere as types only', async () => {
    const restricted = async (file: string, text: string) => (await lint(file, text)).filter((m) => m.startsWith('@typescript-eslint/no-restricted-imports'));
    // A module behind a door (transport/later.ts exports LineFramer), from another folder, its own folder and the VS Code layer.
    assert.equal((await restricted('src/core/connection/bait.ts', "import { LineFramer } from '../transport/lineFramer';\nexport const x = LineFramer;\n")).length, 1);
    assert.equal((await restricted('src/core/transport/bait.ts', "import { LineFramer } from './lineFramer';\nexport const x = LineFramer;\n")).length, 1);
    assert.equal((await restricted('src/vscode/servers/bait.ts', "import { sandboxCheck } from '../../core/transport/sandbox';\nexport const x = sandboxCheck;\n")).length, 1);
    // The door itself.
    assert.equal((await restricted('src/core/connection/bait.ts', "import { stopTree } from '../transport/later';\nexport const x = stopTree;\n")).length, 1);
    assert.equal((await restricted('src/core/transport/bait.ts', "import { stopTree } from './later';\nexport const x = stopTree;\n")).length, 1);
    assert.equal((await restricted('src/vscode/servers/bait.ts', "import { sandboxCheck } from '../../core/transport/later';\nexport const x = sandboxCheck;\n")).length, 1);
    // A module in a bundle of its own that no door exports (the rule engine's, the sign-in's).
    assert.equal((await restricted('src/core/calls/bait.ts', "import { compileRuleRegex } from '../policy/ruleRegex';\nexport const x = compileRuleRegex;\n")).length, 1);
    assert.equal((await restricted('src/core/connection/bait.ts', "import { JwtBearerProvider } from '../auth/jwtBearerProvider';\nexport const x = JwtBearerProvider;\n")).length, 1);
    // Types, and the loader.
    assert.deepEqual(await restricted('src/core/connection/bait.ts', "import type { LineFramer } from '../transport/lineFramer';\nimport type * as Later from '../transport/later';\nimport { loadTransport } from '../transport/load';\nexport type X = [LineFramer, typeof Later];\nexport const y = loadTransport;\n"), []);
  });

  it('an import cycle is an error', async () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'src/core/tools/cycle-bait-'));
    try {
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport const b = a;\n");
      fs.writeFileSync(path.join(dir, 'a.ts'), 'export const a = 1;\n');
      const relative = path.relative(ROOT, path.join(dir, 'a.ts'));
      assert.deepEqual(await lint(relative, "import { b } from './b';\nexport const a = b;\n"), ['local/no-cycle: import cycle: a.ts -> b.ts -> a.ts']);
      assert.deepEqual(await lint(relative, "import type { b } from './b';\nexport const a: typeof b = 1;\n"), [], 'a type import is no cycle');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
