import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { policyInputs, policyRegistryUrl, RuleSet } from '../../src/core/policy/ruleSource';

/** A policy file may pin the registry beside its rules, or pin only the registry. */
describe('a policy file that pins the registry', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-policy-pin-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const policy = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('holding only "registryUrl" has no rules: it is not a broken rules list that makes every call ask', () => {
    const file = policy('only-registry.json', JSON.stringify({ registryUrl: 'https://registry.corp.example' }));
    const set = new RuleSet(() => policyInputs([file]));
    assert.deepEqual(set.problems, []);
    assert.deepEqual(set.rules, []);
    assert.deepEqual(policyRegistryUrl([path.join(dir, 'missing.json'), file]), { url: 'https://registry.corp.example', file });
  });

  it('beside rules, the rules are read and the registry too; a file that pins nothing pins nothing', () => {
    const file = policy('both.json', JSON.stringify({ rules: [], registryUrl: 'https://registry.corp.example/' }));
    assert.deepEqual(new RuleSet(() => policyInputs([file])).problems, []);
    assert.deepEqual(policyRegistryUrl([file]), { url: 'https://registry.corp.example/', file });
    assert.equal(policyRegistryUrl([policy('rules.json', '[]')]), undefined);
    assert.match((policyRegistryUrl([policy('bad.json', '{"registryUrl": 3}')]) as { problem: string }).problem, /"registryUrl" that is not a URL/);
  });
});
