// Starts and stops an isolated code-server (a real VS Code server + web workbench on Node 24)
// for tests and `npm start`. Everything it writes stays under runDir; it listens on 127.0.0.1.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export function e2eEnv() {
  const here = path.dirname(new URL(import.meta.url).pathname);
  const out = execFileSync('bash', ['-c', `. "${here}/env.sh" && env`], { encoding: 'utf8' });
  const env = Object.fromEntries(out.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { NODE24: env.NODE24, CODE_SERVER: env.CODE_SERVER, CHROMIUM: env.CHROMIUM };
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

/** `env` without the variables npm adds for its scripts (see NPM_KEEP for what stays). */
export function withoutNpmEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => NPM_KEEP.test(name) || !isNpmVariable(name)));
}

/** @param {string} runDir */
function isolatedEnv(runDir) {
  const home = path.join(runDir, 'home');
  return {
    ...withoutNpmEnv(),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    TMPDIR: path.join(runDir, 'tmp'),
  };
}

/** @param {string} runDir */
function csArgs(runDir) {
  return ['--config', path.join(runDir, 'config.yaml'), '--user-data-dir', path.join(runDir, 'ud'), '--extensions-dir', path.join(runDir, 'ext')];
}

/**
 * Prepares runDir and installs the given .vsix files. A new profile gets quiet user settings (plus
 * `userSettings`); an existing one keeps the settings its user wrote (`npm start` reuses its profile).
 * @param {string} runDir
 * @param {{ vsix?: string[], userSettings?: Record<string, unknown> }} [options]
 */
export function prepare(runDir, { vsix = [], userSettings = {} } = {}) {
  const { NODE24, CODE_SERVER } = e2eEnv();
  for (const d of ['home', 'tmp', 'ud/User', 'ext']) fs.mkdirSync(path.join(runDir, d), { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    ...userSettings,
  };
  const settingsFile = path.join(runDir, 'ud/User/settings.json');
  if (!fs.existsSync(settingsFile)) fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  for (const file of vsix) {
    execFileSync(NODE24, [path.join(CODE_SERVER, 'out/node/entry.js'), ...csArgs(runDir), '--install-extension', file, '--force'], {
      env: isolatedEnv(runDir),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}

/**
 * Starts code-server in its own process group; resolves once /healthz answers.
 * Returns { url(folder), port, stop() }; stop() ends the whole group.
 * @param {string} runDir
 * @param {{ port?: number, extraArgs?: string[], foreground?: boolean }} [options]
 */
export async function start(runDir, { port, extraArgs = [], foreground = false } = {}) {
  const { NODE24, CODE_SERVER } = e2eEnv();
  port ??= await freePort();
  const log = fs.openSync(path.join(runDir, 'server.log'), 'a');
  const child = spawn(
    NODE24,
    [path.join(CODE_SERVER, 'out/node/entry.js'), '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', ...csArgs(runDir),
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ...extraArgs],
    { env: isolatedEnv(runDir), detached: true, stdio: foreground ? ['ignore', 'inherit', 'inherit'] : ['ignore', log, log] },
  );
  const group = -(child.pid ?? 0);
  const stop = async () => {
    if (!group) return; // the spawn failed: no process to stop
    for (const sig of ['SIGTERM', 'SIGKILL']) {
      try { process.kill(group, sig); } catch { return; }
      for (let i = 0; i < 30; i++) {
        try { process.kill(group, 0); } catch { return; }
        await new Promise((r) => setTimeout(r, 100));
      }
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

/** @typedef {Awaited<ReturnType<typeof start>>} CodeServer one running code-server */

/**
 * Launches Debian's Chromium through playwright-core with a throwaway profile.
 * @param {string} profileRoot where the profile folder is made
 */
export async function launchBrowser(profileRoot) {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM } = e2eEnv();
  const profile = fs.mkdtempSync(path.join(profileRoot, 'chrome-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    env: { ...process.env, HOME: profile, TMPDIR: profile },
    viewport: { width: 1400, height: 900 },
  });
  return { ctx, close: async () => { await ctx.close(); fs.rmSync(profile, { recursive: true, force: true }); } };
}
