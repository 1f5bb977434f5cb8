import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/cli/config';
import { cliWorkspace, workspaceOfConfig } from '../../src/cli/workspace';

describe("the CLI's --config of a repository (cli/config.ts)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-cli-config-'));
  const file = path.join(dir, '.mcp.json');
  fs.writeFileSync(file, JSON.stringify({ mcpServers: { ev: { command: 'node' } } }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('says how its untrusted calls ask: --yes for a command, the client for serve (which takes no --yes)', () => {
    const untrusted = (serving: boolean) => loadConfig(file, { serving }).warnings.find((w) => /not trusted/.test(w)) ?? '';
    assert.match(untrusted(false), /so every call asks first \(--yes to allow\)\. Pass --trust-config if the file is yours\.$/);
    assert.match(untrusted(true), /so every call asks the gateway's client first \(or an allow rule of yours decides\)\. Pass --trust-config if the file is yours\.$/);
    assert.doesNotMatch(untrusted(true), /--yes/);
  });
});

describe("the CLI's workspace: a workspace's config file's own folder", () => {
  it('.vscode/mcp.json and .vscode/settings.json: the folder holding .vscode; .mcp.json: its folder; any other file: none (the current directory)', () => {
    assert.equal(workspaceOfConfig('/r/app/.vscode/mcp.json'), '/r/app');
    assert.equal(workspaceOfConfig('/r/app/.vscode/settings.json'), '/r/app');
    assert.equal(workspaceOfConfig('/r/app/.mcp.json'), '/r/app');
    assert.equal(workspaceOfConfig('/home/u/servers.json'), undefined);
    assert.equal(workspaceOfConfig(undefined), undefined);
    assert.equal(cliWorkspace('/home/u/servers.json'), process.cwd());
  });
});
