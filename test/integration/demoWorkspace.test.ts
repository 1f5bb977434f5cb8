import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './helpers';

interface DemoWorkspaceModule {
  defaultDemoWorkspace(env?: NodeJS.ProcessEnv): string;
  prepareDemoWorkspace(dir: string, options: { checkout: string; oldDir?: string }): string;
}
const load = async () => (await import(pathToFileURL(path.join(ROOT, 'scripts/demoWorkspace.mjs')).href)) as DemoWorkspaceModule;

/**
 * Where `npx` in `dir` finds server-everything's command without fetching it, or "none", in the
 * environment code-server (and so every server the demo VS Code starts) gets from `npm start`.
 */
async function npxFinds(dir: string): Promise<string> {
  const { withoutNpmEnv } = (await import(pathToFileURL(path.join(ROOT, 'scripts/e2e/codeServer.mjs')).href)) as { withoutNpmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv };
  // This run's PATH is npm's for a script (npx mocha): the checkout's node_modules/.bin first, as under `npm start`.
  const asNpmStart = { ...process.env, PATH: [path.join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter) };
  return execFileSync('npx', ['--no-install', '-c', 'command -v mcp-server-everything || echo none'], { cwd: dir, env: withoutNpmEnv(asNpmStart), encoding: 'utf8' }).trim();
}

describe('the demo workspace of `npm start` (issue 32: a trial there runs what a user gets)', function () {
  this.timeout(30_000);
  let home: string;
  before(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-demo-home-'))));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  it('lies outside the checkout, and npx there does not run the checkout\'s node_modules', async () => {
    const { defaultDemoWorkspace, prepareDemoWorkspace } = await load();
    assert.equal(defaultDemoWorkspace({ HOME: home }), path.join(os.homedir(), '.cache', 'mcp-tool-host', 'demo-workspace'));
    const workspace = defaultDemoWorkspace({ XDG_CACHE_HOME: path.join(home, 'cache') });
    assert.equal(workspace, path.join(home, 'cache', 'mcp-tool-host', 'demo-workspace'));
    prepareDemoWorkspace(workspace, { checkout: ROOT });
    assert.equal(await npxFinds(workspace), 'none');
    // The check is live: where the workspace used to be (the profile, inside the checkout), npx ran the checkout's copy.
    const inside = fs.mkdtempSync(path.join(ROOT, '.vscode-test-demo-'));
    try {
      assert.equal(await npxFinds(inside), path.join(ROOT, 'node_modules', '.bin', 'mcp-server-everything'));
      assert.throws(() => prepareDemoWorkspace(path.join(inside, 'ws'), { checkout: ROOT }), /inside the checkout .*--workspace DIR/);
    } finally {
      fs.rmSync(inside, { recursive: true, force: true });
    }
  });

  it('keeps the user\'s files between runs, and moves them once from where earlier versions kept them', async () => {
    const { prepareDemoWorkspace } = await load();
    const old = path.join(home, 'profile', 'demo-workspace');
    fs.mkdirSync(old, { recursive: true });
    fs.writeFileSync(path.join(old, 'notes.md'), 'my notes');
    const workspace = path.join(home, 'ws');
    assert.match(prepareDemoWorkspace(workspace, { checkout: ROOT, oldDir: old }), /moved out of the checkout from /);
    assert.equal(fs.readFileSync(path.join(workspace, 'notes.md'), 'utf8'), 'my notes');
    assert.ok(!fs.existsSync(old));
    fs.writeFileSync(path.join(workspace, 'README.md'), 'edited');
    assert.match(prepareDemoWorkspace(workspace, { checkout: ROOT, oldDir: old }), /kept between runs/);
    assert.equal(fs.readFileSync(path.join(workspace, 'README.md'), 'utf8'), 'edited', 'a second run changes nothing');
  });
});
