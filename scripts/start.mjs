// `npm start`: builds and packages the extension, installs it into a pinned code-server
// (a real VS Code on Node 24, cached per user) whose user settings configure the bundled demo
// server, opens a demo workspace, and prints the URL. Ctrl+C stops everything.
// The profile (user settings, extensions, state) and the demo workspace are kept between runs:
// what the user did in the demo VS Code (a server added, a setting changed) is still there next time.
// The workspace lies outside the checkout (scripts/demoWorkspace.mjs): npx there runs what a user gets.
// Options: --port N (default 8080), --profile DIR (default .vscode-test/start),
//          --workspace DIR (default ~/.cache/mcp-tool-host/demo-workspace; not inside the checkout),
//          --reset (start from a new profile; the workspace's files stay),
//          --no-wait (start, print, and exit after a health check).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { defaultDemoWorkspace, prepareDemoWorkspace } from './demoWorkspace.mjs';
import { e2eEnv, prepare, start } from './e2e/codeServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (/** @type {string} */ name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const port = Number(arg('--port') ?? process.env.PORT ?? 8080);
const runDir = path.resolve(arg('--profile') ?? path.join(root, '.vscode-test', 'start'));
const workspace = path.resolve(arg('--workspace') ?? defaultDemoWorkspace());
/**
 * Runs a build step; a failing one ends `npm start` with its status.
 * @param {string} cmd
 * @param {string[]} args
 */
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// Checked before the build: a workspace inside the checkout would not show what a user gets.
let workspaceSaid = '';
try {
  workspaceSaid = prepareDemoWorkspace(workspace, { checkout: root, oldDir: path.join(runDir, 'demo-workspace') });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
}
run('npm', ['run', '--silent', 'package']);
run('bash', ['scripts/e2e/setup.sh', '--start']);

if (process.argv.includes('--reset')) {
  console.log(`--reset: removing the demo profile ${runDir}`);
  fs.rmSync(runDir, { recursive: true, force: true });
}
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const demo = {
  command: e2eEnv().NODE24,
  args: [path.join(runDir, 'ext', `${pkg.publisher}.${pkg.name}-${pkg.version}`, 'dist', 'demo-server.js')],
};
// A new profile gets the demo server in its user settings (as "Add Demo Server" would put it
// there: a user's server starts without the prompt a workspace-defined one gets).
// The first start shows the extension: its side bar and walkthrough open once (the e2e suites turn that off).
prepare(runDir, { vsix: [path.join(root, 'dist-vsix', 'mcp-tool-host.vsix')], userSettings: { 'mcpToolHost.servers': { demo }, 'workbench.welcomePage.walkthroughs.openOnInstall': true } });
repointDemo(path.join(runDir, 'ud', 'User', 'settings.json'), demo);

const cs = await start(runDir, { port });
const url = cs.url(workspace);
console.log(`\nMCP Tool Host is running in VS Code (code-server) at:\n\n  ${url}\n\nOpen it in a browser on this machine (127.0.0.1 only, no password). Ctrl+C stops it.`);
console.log(`Profile: ${runDir} (kept between runs; \`npm start -- --reset\` starts from a new one).`);
console.log(workspaceSaid);
if (process.argv.includes('--no-wait')) {
  await cs.stop();
  process.exit(0);
}
// Either way it ends, cs.stop() runs to its end: it also removes the start's temp folder (sockets).
let stopping = false;
const stop = async () => {
  stopping = true;
  await cs.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
cs.child.on('exit', (code) => {
  if (stopping) return; // our own stop: it exits when done
  console.log(`code-server exited (${code}); log: ${path.join(runDir, 'server.log')}`);
  void cs.stop().then(() => process.exit(code ?? 1));
});

/**
 * Points a `demo` entry that still runs the bundled demo server at this run's Node and extension
 * (both paths change with the cache and the version). Every other key, and a removed or
 * repurposed entry, stays as the user left it; comments survive (jsonc edits).
 * @param {string} settingsFile
 * @param {{ command: string, args: string[] }} demo
 */
function repointDemo(settingsFile, demo) {
  let text = fs.readFileSync(settingsFile, 'utf8');
  const current = parse(text, [], { allowTrailingComma: true })?.['mcpToolHost.servers']?.demo;
  const runsBundledDemo = typeof current?.args?.[0] === 'string' && current.args[0].endsWith(`${path.sep}dist${path.sep}demo-server.js`);
  if (!runsBundledDemo) return;
  for (const [key, value] of Object.entries(demo)) {
    text = applyEdits(text, modify(text, ['mcpToolHost.servers', 'demo', key], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  fs.writeFileSync(settingsFile, text);
}
