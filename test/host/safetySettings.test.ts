import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { approveAllCalls, listingLimits, maxMessageBytes, RENAMED, rateLimit, resultsBudget } from '../../src/vscode/config/settings';

const config = () => vscode.workspace.getConfiguration('mcpToolHost');
const { Global, Workspace } = vscode.ConfigurationTarget;
const KEYS = ['approveAllCalls', 'rateLimit.burst', 'rateLimit.perSecond', 'maxToolsPerServer', ...Object.entries(RENAMED).flat()];

/** Issue 13: a repository's .vscode/settings.json must not loosen a safety setting, only tighten it. */
describe("safety settings in VS Code: a workspace's settings can only make them safer", () => {
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
  });
  afterEach(async () => {
    for (const key of KEYS) {
      await config().update(key, undefined, Global);
      if (!key.startsWith('results.')) await config().update(key, undefined, Workspace); // results.* are user settings only
    }
  });

  it('"approve every call" that the user turned on stays on when the workspace turns it off; a workspace may turn it on', async () => {
    await config().update('approveAllCalls', true, Global);
    await config().update('approveAllCalls', false, Workspace);
    assert.equal(approveAllCalls(), true);
    assert.equal(api.pipeline.rules.approveAll(), true, 'the pipeline asks before every call');
    await config().update('approveAllCalls', false, Global);
    await config().update('approveAllCalls', true, Workspace);
    assert.equal(api.pipeline.rules.approveAll(), true);
  });

  it('the rate limit, the message cap and the tool-list bound take the smaller of the two values', async () => {
    await config().update('rateLimit.burst', 5, Global);
    await config().update('rateLimit.burst', 1_000_000, Workspace);
    await config().update('rateLimit.perSecond', 1_000_000, Workspace);
    await config().update('maxMessageSize', 4096, Workspace);
    await config().update('maxToolsPerServer', 10_000_000, Workspace);
    assert.deepEqual(rateLimit(), { burst: 5, perSecond: 10 });
    assert.equal(maxMessageBytes(), 64 * 1024 * 1024);
    assert.equal(listingLimits().maxTools, 20_000);
    await config().update('maxMessageSize', 2, Workspace);
    assert.equal(maxMessageBytes(), 2 * 1024 * 1024, 'a workspace may tighten it');
  });

  it('a renamed setting (maxMessageMiB, maxToolListMiB, results.maxMiB) still applies where its new name is unset; the new name wins', async () => {
    const MiB = 1024 * 1024;
    await config().update('maxMessageMiB', 3, Global);
    await config().update('maxToolListMiB', 5, Global);
    await config().update('results.maxMiB', 7, Global);
    assert.equal(maxMessageBytes(), 3 * MiB);
    assert.equal(listingLimits().maxBytes, 5 * MiB);
    assert.equal(resultsBudget().maxBytes, 7 * MiB);
    await config().update('maxMessageSize', 4, Global);
    await config().update('maxToolListSize', 6, Global);
    await config().update('results.maxSize', 8, Global);
    assert.equal(maxMessageBytes(), 4 * MiB);
    assert.equal(listingLimits().maxBytes, 6 * MiB);
    assert.equal(resultsBudget().maxBytes, 8 * MiB);
    // A workspace's old name still only tightens.
    await config().update('maxMessageMiB', 4096, Workspace);
    assert.equal(maxMessageBytes(), 4 * MiB);
    await config().update('maxMessageMiB', 2, Workspace);
    assert.equal(maxMessageBytes(), 2 * MiB);
  });
});
