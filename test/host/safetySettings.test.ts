import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { approveAllCalls, listingLimits, maxMessageBytes, rateLimit } from '../../src/vscode/settings';

const config = () => vscode.workspace.getConfiguration('mcpToolHost');
const { Global, Workspace } = vscode.ConfigurationTarget;
const KEYS = ['approveAllCalls', 'rateLimit.burst', 'rateLimit.perSecond', 'maxMessageMiB', 'maxToolsPerServer'];

/** Issue 13: a repository's .vscode/settings.json must not loosen a safety setting, only tighten it. */
describe("safety settings in VS Code: a workspace's settings can only make them safer", () => {
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
  });
  afterEach(async () => {
    for (const key of KEYS) {
      await config().update(key, undefined, Global);
      await config().update(key, undefined, Workspace);
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
    await config().update('maxMessageMiB', 4096, Workspace);
    await config().update('maxToolsPerServer', 10_000_000, Workspace);
    assert.deepEqual(rateLimit(), { burst: 5, perSecond: 10 });
    assert.equal(maxMessageBytes(), 64 * 1024 * 1024);
    assert.equal(listingLimits().maxTools, 20_000);
    await config().update('maxMessageMiB', 2, Workspace);
    assert.equal(maxMessageBytes(), 2 * 1024 * 1024, 'a workspace may tighten it');
  });
});
