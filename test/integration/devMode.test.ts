import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers, type ServerDefinition } from '../../src/core/config/serverConfig';
import { DevFolderWatch } from '../../src/core/connection/devFolderWatch';
import type { DevHost } from '../../src/core/connection/devWatch';
import { ServerConnection, type ConnectionDeps } from '../../src/core/connection/serverConnection';
import { ServerPool } from '../../src/core/connection/serverPool';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { FIXTURES, until } from './helpers';

const CALL = { timeoutMs: 20_000, maxTotalTimeoutMs: 20_000 };
/** The folders the tests made, removed once each test's servers stopped. */
const made: string[] = [];

/**
 * A workspace folder with a server under development: tools.json lists its tools. The host's
 * watcher is scripted (VS Code's own is exercised in test/host/devMode.test.ts): `touch` writes a
 * file and tells what VS Code's watcher would tell.
 */
function devServer(dev: Record<string, unknown>, extra: Partial<ConnectionDeps> = {}, source: 'user' | 'workspace' = 'workspace') {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-dev-')));
  made.push(folder);
  fs.mkdirSync(path.join(folder, 'build'));
  const toolsFile = path.join(folder, 'build', 'tools.json');
  fs.writeFileSync(toolsFile, JSON.stringify(['first']));
  const [def] = parseServers({ s: { command: process.execPath, args: [path.join(FIXTURES, 'dev-server.cjs'), toolsFile], dev } }, source).servers as [ServerDefinition];
  const logs: string[] = [];
  const heard: ((file: string) => void)[] = [];
  const attached: number[] = [];
  /** Each detach: its port, and whether the server's inspector still answered then (the debugger lets go first). */
  const detached: { port: number; alive: boolean }[] = [];
  const host: DevHost = {
    folders: () => [{ path: folder }],
    watch: (patterns, changed) => {
      assert.deepEqual(patterns, ['build/**']);
      heard.push(changed);
      return { dispose: () => heard.splice(heard.indexOf(changed), 1) };
    },
    attach: (_server, port) => {
      attached.push(port);
      return { detach: async () => void detached.push({ port, alive: await inspectorAnswers(port) }) };
    },
  };
  const deps: ConnectionDeps = {
    validator: new SchemaValidator(),
    clientVersion: 'test',
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(`warn ${m}`), error: (m) => logs.push(`error ${m}`), stderr: (m) => logs.push(`stderr ${m}`) },
    resolveLaunch: async (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'w', path: folder }], env: process.env }),
    dev: host,
    ...extra,
  };
  const c = new ServerConnection(def, deps);
  const touch = (file: string, text: string) => {
    fs.writeFileSync(file, text);
    for (const h of heard) h(file);
  };
  const pid = async () => ((await c.callTool(c.tools[0].name, {}, CALL)) as { content: { text: string }[] }).content[0].text;
  return { c, def, deps, logs, folder, toolsFile, touch, heard, attached, detached, pid };
}

/** Whether a Node inspector answers on 127.0.0.1:`port`. */
function inspectorAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => http.get({ host: '127.0.0.1', port, path: '/json/version' }, (res) => (res.resume(), resolve(true))).on('error', () => resolve(false)));
}

describe('dev mode: restart on change, debugger attach (real child processes)', function () {
  this.timeout(60_000);
  const open: ServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => (c.dispose(), c.stop())));
    for (const folder of made.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a change of a watched file restarts the server (a new process), lists its tools again and keeps its log, with a line naming the file', async () => {
    const s = devServer({ watch: 'build/**' });
    open.push(s.c);
    await s.c.start();
    await s.c.listed();
    assert.deepEqual(s.c.tools.map((t) => t.name), ['first', 'wait']);
    const before = await s.pid();
    s.touch(s.toolsFile, JSON.stringify(['second']));
    await until('the restarted server', () => s.c.state.kind === 'running' && s.c.tools[0]?.name === 'second', 15_000);
    assert.deepEqual(s.c.tools.map((t) => t.name), ['second', 'wait']);
    assert.notEqual(await s.pid(), before);
    const restartLine = s.logs.indexOf(`Dev mode: restarting, ${s.toolsFile} changed.`);
    assert.ok(restartLine > 0, s.logs.join('\n'));
    // The first launch's lines are still there, before the restart's.
    assert.ok(s.logs.findIndex((l) => l.startsWith('Starting:')) < restartLine);
    assert.ok(s.logs.map((l) => l.startsWith('Starting:')).lastIndexOf(true) > restartLine);
  });

  it('a burst of saves is one restart, and a server the user stopped stays stopped', async () => {
    const s = devServer({ watch: ['build/**'] });
    open.push(s.c);
    await s.c.start();
    await s.c.listed();
    for (let i = 0; i < 5; i++) {
      s.touch(s.toolsFile, JSON.stringify([`t${i}`]));
      await new Promise((r) => setTimeout(r, 50));
    }
    await until('the restarted server', () => s.c.state.kind === 'running' && s.c.tools[0]?.name === 't4', 15_000);
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(s.logs.filter((l) => l.startsWith('Starting:')).length, 2, s.logs.join('\n'));
    assert.equal(s.logs.filter((l) => l.startsWith('Dev mode: restarting')).length, 1);
    await s.c.stop();
    s.touch(s.toolsFile, JSON.stringify(['again']));
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(s.c.state.kind, 'stopped');
    assert.equal(s.logs.filter((l) => l.startsWith('Starting:')).length, 2);
  });

  it('one save told twice (VS Code\'s watcher and the folder watch; the second after the restart) restarts once; the next save restarts again', async () => {
    const s = devServer({ watch: 'build/**' });
    open.push(s.c);
    await s.c.start();
    await s.c.listed();
    s.touch(s.toolsFile, JSON.stringify(['second']));
    await until('the restarted server', () => s.c.state.kind === 'running' && s.c.tools[0]?.name === 'second', 15_000);
    for (const h of s.heard) h(s.toolsFile); // the slower ear, late
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(s.logs.filter((l) => l.startsWith('Starting:')).length, 2, s.logs.join('\n'));
    s.touch(s.toolsFile, JSON.stringify(['third']));
    await until('restarted again', () => s.c.state.kind === 'running' && s.c.tools[0]?.name === 'third', 15_000);
    fs.rmSync(s.toolsFile);
    for (const h of s.heard) h(s.toolsFile);
    await until('restarted for the deletion', () => s.logs.filter((l) => l.startsWith('Dev mode: restarting')).length === 3, 15_000);
    for (const h of s.heard) h(s.toolsFile); // the deletion told again
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(s.logs.filter((l) => l.startsWith('Dev mode: restarting')).length, 3, s.logs.join('\n'));
  });

  it('a call in flight when the server restarts fails at once, saying which file changed', async () => {
    const s = devServer({ watch: 'build/**' });
    open.push(s.c);
    await s.c.start();
    await s.c.listed();
    const began = Date.now();
    const call = s.c.callTool('wait', { ms: 30_000 }, CALL);
    await new Promise((r) => setTimeout(r, 200));
    s.touch(s.toolsFile, JSON.stringify(['second']));
    await assert.rejects(call, (err: Error) => err.message === `The server restarted because ${s.toolsFile} changed (dev mode); the call did not finish.`);
    assert.ok(Date.now() - began < 10_000);
  });

  it('a file outside the workspace (reached through a link) does not restart the server', async () => {
    const s = devServer({ watch: 'build/**' });
    open.push(s.c);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-dev-outside-'));
    made.push(elsewhere);
    fs.symlinkSync(elsewhere, path.join(s.folder, 'build', 'linked'));
    await s.c.start();
    await s.c.listed();
    s.touch(path.join(s.folder, 'build', 'linked', 'secret.txt'), 'x');
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(s.logs.filter((l) => l.startsWith('Starting:')).length, 1, s.logs.join('\n'));
  });

  it('debug: the server runs with the Node inspector on 127.0.0.1 at a free port, and the debugger is asked to attach to it', async () => {
    const s = devServer({ debug: { type: 'node' } });
    open.push(s.c);
    await s.c.start();
    assert.equal(s.c.state.kind, 'running', s.logs.join('\n'));
    assert.equal(s.attached.length, 1);
    const port = s.attached[0];
    assert.match(s.c.launchLine ?? '', new RegExp(`node\\S* --inspect=127\\.0\\.0\\.1:${port} `));
    const targets = await new Promise<{ type: string; url: string }[]>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/json/list' }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(JSON.parse(body) as { type: string; url: string }[]));
      }).on('error', reject);
    });
    assert.equal(targets[0].type, 'node');
    assert.match(targets[0].url, /dev-server\.cjs$/);
    // Nothing answers on another interface of this machine at that port.
    const other = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (other) await assert.rejects(new Promise((resolve, reject) => http.get({ host: other.address, port, path: '/json/list' }, resolve).on('error', reject)));
  });

  it('debug: the debug session ends before the server stops (a restart, a Stop); Attach Debugger attaches again to the running server only', async () => {
    const s = devServer({ watch: 'build/**', debug: { type: 'node' } });
    open.push(s.c);
    await s.c.start();
    assert.ok(s.c.debuggable);
    const first = s.attached[0];
    s.touch(s.toolsFile, JSON.stringify(['second']));
    await until('the restarted server', () => s.c.state.kind === 'running' && s.c.tools[0]?.name === 'second', 15_000);
    assert.deepEqual(s.detached, [{ port: first, alive: true }], 'the first session detached while its server still ran');
    assert.equal(s.attached.length, 2);
    assert.ok(s.c.attachDebugger());
    assert.deepEqual(s.attached.slice(1), [s.attached[1], s.attached[1]], 'attached again, to the running launch');
    await until('the session it replaces ended', () => s.detached.length === 2, 5_000);
    assert.deepEqual(s.detached[1], { port: s.attached[1], alive: true });
    await s.c.stop();
    assert.deepEqual(s.detached.at(-1), { port: s.attached[1], alive: true });
    assert.equal(s.c.debuggable, false);
    assert.equal(s.c.attachDebugger(), false, 'a stopped server has no inspector to attach to');
  });

  it('a workspace trusted after the server was made: renewDev turns dev mode on, and a change restarts the running server from then on', async () => {
    const s = devServer({ watch: 'build/**' });
    s.c.dispose();
    let trusted = false;
    const pool = new ServerPool(() => ({ ...s.deps, dev: trusted ? s.deps.dev : { unavailable: 'this workspace is not trusted' } }));
    pool.apply({ servers: [s.def], errors: [] }, { autoStart: false });
    const c = pool.get(s.def.name)!;
    open.push(c);
    await c.start();
    assert.equal(c.devMode, false);
    assert.equal(s.heard.length, 0, 'nothing watched before trust');
    const changes: unknown[] = [];
    pool.onDidChange((x) => changes.push(x));
    trusted = true;
    pool.renewDev();
    assert.equal(c.devMode, true);
    assert.deepEqual(changes, [c], 'the row hears of it');
    assert.equal(pool.get(s.def.name), c, 'the same connection, still running');
    assert.equal(c.state.kind, 'running');
    s.touch(s.toolsFile, JSON.stringify(['second']));
    await until('the restarted server', () => c.state.kind === 'running' && c.tools[0]?.name === 'second', 15_000);
    pool.renewDev();
    assert.equal(s.heard.length, 1, 'renewed once, not twice');
    assert.ok(s.logs.some((l) => l.startsWith('Dev mode is on now')), s.logs.join('\n'));
  });

  it('says in the log what it will not do: another debugger type, or dev mode where the host has none', async () => {
    const s = devServer({ watch: 'build/**', debug: { type: 'debugpy' } });
    open.push(s.c);
    await s.c.start();
    assert.ok(s.logs.includes('warn Dev mode: debugger type "debugpy" is not supported (only "node"); the server starts without a debugger.'), s.logs.join('\n'));
    assert.ok(!s.c.launchLine?.includes('--inspect'));
    const off = devServer({ watch: 'build/**', debug: { type: 'node' } }, { dev: { unavailable: 'this workspace is not trusted' } });
    open.push(off.c);
    await off.c.start();
    assert.ok(off.logs.includes('warn Dev mode ("dev") is off: this workspace is not trusted. The server starts as usual.'), off.logs.join('\n'));
    assert.equal(off.c.devMode, false);
    assert.ok(!off.c.launchLine?.includes('--inspect'));
    assert.equal(off.heard.length, 0);
  });
});

describe('dev mode: its own watch of the watched folders (Node\'s fs.watch)', function () {
  this.timeout(20_000);
  let root: string;
  let watch: DevFolderWatch | undefined;
  const heard: string[] = [];
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-devwatch-')));
    heard.length = 0;
  });
  afterEach(() => {
    watch?.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('hears a save of a matching file under the pattern\'s folder, in subfolders made with their parent too (mkdir -p), and not of a file the pattern leaves out', async () => {
    fs.mkdirSync(path.join(root, 'build'));
    watch = new DevFolderWatch(root, ['build/**/*.js'], (file) => heard.push(file));
    fs.writeFileSync(path.join(root, 'build', 'index.js.map'), '{}');
    fs.writeFileSync(path.join(root, 'build', 'index.js'), 'x');
    await until('the save of build/index.js', () => heard.includes(path.join(root, 'build', 'index.js')), 10_000);
    // What a build does, and VS Code's Linux watcher misses: a folder and its subfolder at once, then a file in it.
    fs.mkdirSync(path.join(root, 'build', 'tools', 'deep'), { recursive: true });
    const deep = path.join(root, 'build', 'tools', 'deep', 'a.js');
    fs.writeFileSync(deep, 'x');
    await until('the first save of build/tools/deep/a.js', () => heard.includes(deep), 10_000);
    heard.length = 0;
    await new Promise((r) => setTimeout(r, 300));
    fs.writeFileSync(deep, 'y');
    await until('the next save of build/tools/deep/a.js', () => heard.includes(deep), 10_000);
    assert.ok(!heard.some((f) => f.endsWith('.map')), heard.join('\n'));
  });

  it('a folder made after the watch began (the first build), or deleted and made again (a clean build), counts as changed and is watched from then on', async () => {
    watch = new DevFolderWatch(root, ['dist/*.cjs'], (file) => heard.push(file));
    const dist = path.join(root, 'dist');
    fs.mkdirSync(dist);
    await until('the new folder', () => heard.includes(dist), 10_000);
    const server = path.join(dist, 'server.cjs');
    fs.writeFileSync(server, 'x');
    await until('the save of dist/server.cjs', () => heard.includes(server), 10_000);
    fs.rmSync(dist, { recursive: true });
    await new Promise((r) => setTimeout(r, 300));
    heard.length = 0;
    fs.mkdirSync(dist);
    await until('the folder made again', () => heard.includes(dist), 10_000);
    fs.writeFileSync(server, 'y');
    await until('the save in the folder made again', () => heard.includes(server), 10_000);
  });

  it('a watched folder that is a link out of the workspace is not watched (a repository cannot make it watch the user\'s disk)', async () => {
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-devwatch-outside-')));
    try {
      fs.symlinkSync(outside, path.join(root, 'build'));
      fs.mkdirSync(path.join(root, 'out'));
      watch = new DevFolderWatch(root, ['build/**/*.js', 'out/*.js'], (file) => heard.push(file));
      fs.writeFileSync(path.join(outside, 'a.js'), 'x');
      fs.writeFileSync(path.join(root, 'out', 'b.js'), 'x');
      await until('the save inside the workspace', () => heard.includes(path.join(root, 'out', 'b.js')), 10_000);
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!heard.some((f) => f.startsWith(path.join(root, 'build'))), `nothing heard through the link: ${heard.join(', ')}`);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a pattern whose wildcard spans the whole workspace (**/*.ts) is left to VS Code\'s watcher', async () => {
    fs.mkdirSync(path.join(root, 'src'));
    watch = new DevFolderWatch(root, ['**/*.ts', 'out/*.js'], (file) => heard.push(file));
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'x');
    fs.writeFileSync(path.join(root, 'b.ts'), 'x');
    fs.mkdirSync(path.join(root, 'out'));
    await until('the out folder', () => heard.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(heard, [path.join(root, 'out')], 'only the other pattern\'s folder is watched');
  });
});
