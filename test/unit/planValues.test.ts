import * as assert from 'node:assert/strict';
import type { InstallPlan } from '../../src/core/install/installPlan';
import { checkPlanEntry, fillEntry, renamePlan, safeDefault } from '../../src/core/install/planValues';

const plan: InstallPlan = {
  name: 'github',
  entry: { command: 'npx', args: ['-y', '@acme/github-mcp@1.2.3', '--org=${input:github.ORG}'], env: { GITHUB_TOKEN: '${input:github.GITHUB_TOKEN}' } },
  inputs: [
    { id: 'github.ORG', label: 'ORG', secret: false, required: true },
    { id: 'github.GITHUB_TOKEN', label: 'GITHUB_TOKEN', secret: true, required: true },
  ],
  claims: [],
  origin: 'registry https://r.example io.github.acme/github@1.2.3',
  runsVia: 'npm',
};

describe('install plan values', () => {
  it('a renamed server asks under ids of its new name, in the entry and the inputs', () => {
    const renamed = renamePlan(plan, 'work gh');
    assert.deepEqual(renamed.inputs.map((i) => i.id), ['work_gh.ORG', 'work_gh.GITHUB_TOKEN']);
    assert.deepEqual(renamed.entry, { command: 'npx', args: ['-y', '@acme/github-mcp@1.2.3', '--org=${input:work_gh.ORG}'], env: { GITHUB_TOKEN: '${input:work_gh.GITHUB_TOKEN}' } });
    assert.equal(checkPlanEntry(renamed), undefined);
  });

  it('writes the plain values in, once, and leaves a secret for secret storage', () => {
    const filled = fillEntry(plan, new Map([['github.ORG', '${input:github.GITHUB_TOKEN}'], ['github.GITHUB_TOKEN', 'tok']]));
    assert.deepEqual(filled, { command: 'npx', args: ['-y', '@acme/github-mcp@1.2.3', '--org=${input:github.GITHUB_TOKEN}'], env: { GITHUB_TOKEN: '${input:github.GITHUB_TOKEN}' } });
  });

  it("refuses an entry that would take the user's environment, paths or another server's values", () => {
    for (const v of ['${env:AWS_SECRET_ACCESS_KEY}', '${userHome}/.ssh', '${workspaceFolder}', '${input:other.TOKEN}']) {
      const problem = checkPlanEntry({ ...plan, entry: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: v } } });
      assert.match(problem ?? '', /it was not installed/, v);
    }
    assert.equal(safeDefault({ id: 'a.b', label: 'b', secret: false, required: false, default: '${env:HOME}' }), undefined);
    assert.equal(safeDefault({ id: 'a.b', label: 'b', secret: false, required: false, default: 'main' }), 'main');
  });
});
