import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseServers } from '../../src/core/config/serverConfig';
import { ERA_KEPT_MS, rememberedEra } from '../../src/core/connection/eraMemory';
import { eraFile } from '../../src/cli/eraFile';

const def = (command: string) => parseServers({ s: { command } }, 'user').servers[0];

describe('remembered protocol eras', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-eras-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps a launch's era for a day, per launch; a changed launch is a new server", () => {
    let now = Date.now();
    const store = eraFile(path.join(dir, 'a.json'));
    rememberedEra(store, def('node'), () => now).save('legacy');
    assert.equal(rememberedEra(eraFile(path.join(dir, 'a.json')), def('node'), () => now).load(), 'legacy', 'read back from the file');
    assert.equal(rememberedEra(store, def('python'), () => now).load(), undefined);
    now += ERA_KEPT_MS;
    assert.equal(rememberedEra(store, def('node'), () => now).load(), undefined, 'forgotten after a day');
  });

  it('reads a damaged or edited file as nothing remembered, and writes a good one again', () => {
    const file = path.join(dir, 'b.json');
    fs.writeFileSync(file, '{ not json');
    const memory = rememberedEra(eraFile(file), def('node'));
    assert.equal(memory.load(), undefined);
    memory.save('modern');
    assert.equal(rememberedEra(eraFile(file), def('node')).load(), 'modern');
    fs.writeFileSync(file, JSON.stringify({ [Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')))[0]]: { era: 'ancient', at: Date.now() } }));
    assert.equal(rememberedEra(eraFile(file), def('node')).load(), undefined, 'an era that is not ours');
  });

  it('keeps at most 200 launches, the newest', () => {
    const file = path.join(dir, 'c.json');
    const store = eraFile(file);
    for (let i = 0; i < 250; i++) rememberedEra(store, def(`cmd-${i}`), () => Date.now() - 250 + i).save('legacy');
    const kept = Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')));
    assert.equal(kept.length, 200);
    assert.equal(rememberedEra(eraFile(file), def('cmd-249')).load(), 'legacy');
    assert.equal(rememberedEra(eraFile(file), def('cmd-0')).load(), undefined);
  });
});
