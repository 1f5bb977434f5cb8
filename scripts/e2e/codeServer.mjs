// Starts and stops an isolated code-server (a real VS Code server + web workbench on Node 24)
// for tests and `npm start`. What it keeps stays under runDir; its sockets and temporary files go
// to a short private temp folder of each start; it listens on 127.0.0.1.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function e2eEnv() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // The folder as an argument, not spliced into the script: a checkout's path may hold quotes or `$`.
  const out = execFileSync('bash', ['-c', '. "$1/env.sh" && env', 'bash', here], { encoding: 'utf8' });
  const env = Object.fromEntries(out.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { NODE24: env.NODE24, CODE_SERVER: env.CODE_SERVER, CHROMIUM: env.CHROMIUM, CONFORMANCE: env.CONFORMANCE };
}

/**
 * A Unix socket's path stops at 107 bytes (108 with its NUL; 104 on macOS), and Chromium, code-server
 * and VS Code make sockets inside the folders they are given (SingletonSocket, code-server-ipc.sock,
 * vscode-ipc-*.sock): under a checkout at a long path they fail (issue 30). Sockets, browser profiles
 * and code-server's temporary files go to a folder made here instead.
 */
const MAX_TEMP_BASE = 40;

/**
 * Makes a private (0700) folder with a short path: in os.tmpdir(), or in /tmp where the system's
 * temp folder is itself too long to hold a socket path below it.
 * @param {string} prefix a few letters that say whose folder it is
 */
export function shortTempDir(prefix) {
  const base = os.tmpdir().length <= MAX_TEMP_BASE || process.platform === 'win32' ? os.tmpdir() : '/tmp';
  return fs.mkdtempSync(path.join(base, prefix));
}

/**
 * Every process a code-server of ours starts (its extension host, the servers that starts, their
 * children) inherits this variable, set to the run folder: tests find what they started by it, never
 * by a command line that another checkout's `npm start` could share (issue 30).
 */
export const RUN_MARKER = 'MCP_TOOL_HOST_E2E_RUN';

/**
 * Polls `read` for up to 5 s until it returns nothing (processes take a moment to exit).
 * @param {() => string[]} read
 */
export async function settled(read) {
  let left = read();
  for (let i = 0; i < 50 && left.length; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = read();
  }
  return left;
}

/**
 * The processes (`pid args` lines) that belong to a run: their environment holds RUN_MARKER=runDir, or
 * their command line names runDir. Reads /proc where there is one (Linux); elsewhere only command lines.
 * @param {string} runDir
 * @param {RegExp} [match] only processes whose command line matches
 * @returns {string[]}
 */
export function processesOfRun(runDir, match = /./) {
  const marker = `${RUN_MARKER}=${runDir}\0`;
  const rows = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').map((l) => l.trim()).filter(Boolean);
  return rows.filter((row) => {
    const pid = Number(row.split(' ', 1)[0]);
    if (pid === process.pid || !match.test(row) || row.includes('ps -eo')) return false;
    if (row.includes(runDir)) return true;
    try {
      return `${fs.readFileSync(`/proc/${pid}/environ`, 'latin1')}\0`.includes(marker);
    } catch {
      return false; // gone already, not ours to read, or no /proc
    }
  });
}

/** @returns {Promise<number>} a TCP port free on 127.0.0.1 right now */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

// What `npm test` / `npm start` put in the environment (npm_config_*, npm_package_*, INIT_CWD,
// NODE...) must not reach code-server: a server started there with npx would take this checkout
// as its npm prefix. Registry access (mirror, proxy, CA) is kept. Same rule as env.sh.
const NPM_KEEP = /^npm_config_(registry|proxy|https_proxy|http_proxy|noproxy|cafile|ca|strict_ssl)$/i;
const isNpmVariable = (/** @type {string} */ name) => /^npm_config_/i.test(name) || /^npm_/.test(name) || name === 'INIT_CWD' || name === 'NODE';

/** The checkout this script belongs to. */
const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `env` without the variables npm adds for its scripts (see NPM_KEEP for what stays), and PATH
 * without the folders npm put first for them: the checkout's node_modules/.bin (and its parents'),
 * and node-gyp-bin. With them, `npx -y @modelcontextprotocol/server-everything` in the demo VS Code
 * ran the checkout's devDependency, not what a user gets (issue 32).
 */
export function withoutNpmEnv(env = process.env) {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => NPM_KEEP.test(name) || !isNpmVariable(name)));
  const pathKey = Object.keys(kept).find((name) => name.toUpperCase() === 'PATH');
  if (pathKey) kept[pathKey] = withoutNpmBins(kept[pathKey] ?? '');
  return kept;
}

/** @param {string} value a PATH */
function withoutNpmBins(value) {
  const added = new Set();
  for (let dir = CHECKOUT; ; dir = path.dirname(dir)) {
    added.add(path.join(dir, 'node_modules', '.bin'));
    if (path.dirname(dir) === dir) break;
  }
  return value.split(path.delimiter).filter((entry) => !added.has(path.resolve(entry || '.')) && !/[\\/]@npmcli[\\/]run-script[\\/]lib[\\/]node-gyp-bin$/.test(entry)).join(path.delimiter);
}

/**
 * @param {string} runDir
 * @param {string} tmp the short temp folder of this start (sockets go there)
 */
function isolatedEnv(runDir, tmp) {
  const home = path.join(runDir, 'home');
  return {
    ...withoutNpmEnv(),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    TMPDIR: tmp,
    [RUN_MARKER]: runDir,
  };
}

/**
 * @param {string} runDir
 * @param {string} tmp the user-data folder's place for sockets (code-server-ipc.sock)
 */
function csArgs(runDir, tmp) {
  return ['--config', path.join(runDir, 'config.yaml'), '--user-data-dir', path.join(runDir, 'ud'), '--extensions-dir', path.join(runDir, 'ext'), '--session-socket', path.join(tmp, 'session.sock')];
}

/**
 * Prepares runDir and installs the given .vsix files. A new profile gets quiet user settings (plus
 * `userSettings`); an existing one keeps the settings its user wrote (`npm start` reuses its profile).
 * Workspace trust is off unless `workspaceTrust` (then a folder opens in Restricted Mode, without
 * the startup dialog; `start` must be given `workspaceTrust` too).
 * @param {string} runDir
 * @param {{ vsix?: string[], userSettings?: Record<string, unknown>, workspaceTrust?: boolean }} [options]
 */
export function prepare(runDir, { vsix = [], userSettings = {}, workspaceTrust = false } = {}) {
  const { NODE24, CODE_SERVER } = e2eEnv();
  for (const d of ['home', 'ud/User', 'ext']) fs.mkdirSync(path.join(runDir, d), { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    // The extension opens its walkthrough on its first activation for a user: not in the test suites' windows.
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': workspaceTrust,
    ...(workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    'git.openRepositoryInParentFolders': 'never',
    ...userSettings,
  };
  const settingsFile = path.join(runDir, 'ud/User/settings.json');
  if (!fs.existsSync(settingsFile)) fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  // A machine-scoped setting reaches code-server's extension host from the machine's settings, not the
  // user's: the walkthrough's first-run opening reads it there.
  const machineFile = path.join(runDir, 'ud/Machine/settings.json');
  fs.mkdirSync(path.dirname(machineFile), { recursive: true });
  const walkthrough = 'workbench.welcomePage.walkthroughs.openOnInstall';
  if (!fs.existsSync(machineFile)) fs.writeFileSync(machineFile, JSON.stringify({ [walkthrough]: settings[walkthrough] }, null, 2));
  const tmp = shortTempDir('mth-tmp-');
  try {
    for (const file of vsix) {
      execFileSync(NODE24, [path.join(CODE_SERVER, 'out/node/entry.js'), ...csArgs(runDir, tmp), '--install-extension', file, '--force'], {
        env: isolatedEnv(runDir, tmp),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Starts code-server in its own process group; resolves once /healthz answers.
 * Returns { url(folder), port, stop() }; stop() ends the whole group and removes the start's temp folder.
 * Workspace trust is off unless `workspaceTrust` (with a profile `prepare` made for it).
 * @param {string} runDir
 * @param {{ port?: number, extraArgs?: string[], foreground?: boolean, workspaceTrust?: boolean }} [options]
 */
export async function start(runDir, { port, extraArgs = [], foreground = false, workspaceTrust = false } = {}) {
  const { NODE24, CODE_SERVER } = e2eEnv();
  port ??= await freePort();
  const tmp = shortTempDir('mth-tmp-');
  const log = fs.openSync(path.join(runDir, 'server.log'), 'a');
  const child = spawn(
    NODE24,
    [path.join(CODE_SERVER, 'out/node/entry.js'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', ...csArgs(runDir, tmp),
      '--disable-telemetry', '--disable-update-check', ...(workspaceTrust ? [] : ['--disable-workspace-trust']), '--disable-getting-started-override', ...extraArgs],
    { env: isolatedEnv(runDir, tmp), detached: true, stdio: foreground ? ['ignore', 'inherit', 'inherit'] : ['ignore', log, log] },
  );
  fs.closeSync(log);
  const group = -(child.pid ?? 0);
  const stop = async () => {
    try {
      if (group) await endGroup(group); // no pid: the spawn failed, there is no process to stop
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  };
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch { /* not yet */ }
    if (i > 300 || child.exitCode !== null) {
      await stop();
      throw new Error(`code-server did not start; see ${path.join(runDir, 'server.log')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port, child, stop, url: (/** @type {string} */ folder, query = '') => `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}${query}` };
}

/**
 * SIGTERM, then SIGKILL, to a process group, each given 3 s.
 * @param {number} group a negative pid
 */
async function endGroup(group) {
  for (const sig of ['SIGTERM', 'SIGKILL']) {
    try { process.kill(group, sig); } catch { return; }
    for (let i = 0; i < 30; i++) {
      try { process.kill(group, 0); } catch { return; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** @typedef {Awaited<ReturnType<typeof start>>} CodeServer one running code-server */

/** Launches Debian's Chromium through playwright-core with a throwaway profile in a short temp folder (its SingletonSocket lives there). */
export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM } = e2eEnv();
  const profile = shortTempDir('mth-chrome-');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    env: { ...process.env, HOME: profile, TMPDIR: profile },
    viewport: { width: 1400, height: 900 },
  }).catch((err) => {
    fs.rmSync(profile, { recursive: true, force: true });
    throw err;
  });
  return { ctx, close: async () => { await ctx.close(); fs.rmSync(profile, { recursive: true, force: true }); } };
}
