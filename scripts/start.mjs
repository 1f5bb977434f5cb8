// `npm start`: builds and packages the extension, installs it into a pinned code-server
// (a real VS Code on Node 24, cached per user), opens a demo workspace whose settings
// configure the bundled demo server, and prints the URL. Ctrl+C stops everything.
// Options: --port N (default 8080), --no-wait (start, print, and exit after a health check).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, prepare, start } from './e2e/codeServer.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const port = Number(arg('--port') ?? process.env.PORT ?? 8080);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('npm', ['run', '--silent', 'package']);
run('bash', ['scripts/e2e/setup.sh']);

const runDir = path.join(root, '.vscode-test', 'start');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
prepare(runDir, { vsix: [path.join(root, 'dist-vsix', 'mcp-tool-host.vsix')] });
const installed = path.join(runDir, 'ext', `${pkg.publisher}.${pkg.name}-${pkg.version}`, 'dist', 'demo-server.js');
const workspace = path.join(runDir, 'demo-workspace');
fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({
  'mcpToolHost.servers': {
    demo: { command: e2eEnv().NODE24, args: [installed], trustAnnotations: true },
  },
}, null, 2) + '\n');
fs.writeFileSync(path.join(workspace, 'README.md'), '# MCP Tool Host demo\n\nOpen the MCP Tool Host view in the activity bar and click a tool.\n');

const cs = await start(runDir, { port });
const url = cs.url(workspace);
console.log(`\nMCP Tool Host is running in VS Code (code-server) at:\n\n  ${url}\n\nOpen it in a browser on this machine (127.0.0.1 only, no password). Ctrl+C stops it.`);
if (process.argv.includes('--no-wait')) {
  await cs.stop();
  process.exit(0);
}
const stop = async () => { await cs.stop(); process.exit(0); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
cs.child.on('exit', (code) => { console.log(`code-server exited (${code}); log: ${path.join(runDir, 'server.log')}`); process.exit(code ?? 1); });
