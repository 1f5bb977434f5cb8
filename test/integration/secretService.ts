import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The Debian packages (scripts/e2e/setup.sh installs them) and the programs of theirs a test runs. */
const PROGRAMS: Record<string, string> = { 'dbus-daemon': 'dbus-daemon', 'gnome-keyring-daemon': 'gnome-keyring', 'secret-tool': 'libsecret-tools' };

/** A real Secret Service (GNOME Keyring) on a private session bus, with its own home: the user's keyring is never touched. */
export interface SecretService {
  /** The variables a process needs to find this bus and keyring (merge into its environment). */
  readonly env: NodeJS.ProcessEnv;
  /** `secret-tool search --all ATTR VALUE ...`: the entries' attributes and secrets, as it prints them. */
  search(...attributes: string[]): string;
  /** Stops the daemon and the bus and removes their folder; resolves with any process of theirs still alive (none expected). */
  stop(): Promise<string[]>;
}

/** Why a Secret Service cannot be started here (a program missing, not Linux), or undefined when it can. */
export function secretServiceMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the Secret Service is the keychain of Linux only';
  const missing = Object.keys(PROGRAMS).filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
  if (missing.length) return `${missing.join(', ')} not installed (Debian: apt-get install ${[...new Set(missing.map((p) => PROGRAMS[p]))].join(' ')}; scripts/e2e/setup.sh installs them)`;
  return undefined;
}

/**
 * Starts dbus-daemon on a socket of its own, then gnome-keyring-daemon's secrets component on it.
 * `unlocked`: the default ("login") keyring is created and unlocked with a throwaway password, as
 * PAM does at a desktop login. `none`: the daemon runs with no keyring it may write to, as on a
 * machine where nobody ever logged in at a desktop. `locked`: that keyring exists, holding an entry,
 * but this daemon was started without its password. The bus activates nothing (no service folders):
 * a second keyring daemon or a prompter it started would outlive the test; a prompt fails at once,
 * as it does without a display.
 */
export async function startSecretService(keyring: 'unlocked' | 'none' | 'locked'): Promise<SecretService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-ss-'));
  for (const sub of ['home', 'run', 'data', 'config']) fs.mkdirSync(path.join(dir, sub), { mode: 0o700 });
  const socket = path.join(dir, 'run', 'bus');
  const busConfig = path.join(dir, 'bus.conf');
  fs.writeFileSync(busConfig, `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${socket}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
`);
  const env: NodeJS.ProcessEnv = {
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`,
    HOME: path.join(dir, 'home'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  };
  const children: ChildProcess[] = [];
  const stop = async (): Promise<string[]> => {
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill();
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
      }
    }
    const left = processesUsing(socket);
    fs.rmSync(dir, { recursive: true, force: true });
    return left;
  };
  try {
    const bus = spawn('dbus-daemon', ['--nofork', `--config-file=${busConfig}`], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(bus);
    await until(() => fs.existsSync(socket), 'dbus-daemon did not open its socket', bus);
    const search = (...attributes: string[]) => {
      const r = spawnSync('secret-tool', ['search', '--all', ...attributes], { env: { ...process.env, ...env }, encoding: 'utf8' });
      if (r.stderr.trim() && !/^attribute\./m.test(r.stderr)) throw new Error(`secret-tool: ${r.stderr.trim()}`);
      return r.stdout + r.stderr;
    };
    const startKeyring = async (password?: string) => {
      const daemon = spawn('gnome-keyring-daemon', ['--foreground', '--components=secrets', ...(password === undefined ? [] : ['--unlock'])], { env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
      children.push(daemon);
      // --unlock reads the password from stdin, to its end.
      daemon.stdin?.end(password ?? '');
      // Until the keyring daemon owns its name on the bus, secret-tool fails (nothing is activated).
      await until(() => { try { search('mth-probe', 'ready'); return true; } catch { return false; } }, 'gnome-keyring-daemon did not answer on the bus', daemon);
      return daemon;
    };
    if (keyring === 'locked') {
      const first = await startKeyring('throwaway password');
      const stored = spawnSync('secret-tool', ['store', '--label=earlier', 'service', 'mcp-tool-host', 'username', 'mcpToolHost.oauth.earlier'], { env: { ...process.env, ...env }, input: 'kept earlier', encoding: 'utf8' });
      if (stored.status !== 0) throw new Error(`secret-tool store: ${stored.stderr}`);
      const gone = new Promise((r) => first.once('exit', r));
      first.kill();
      await gone;
      // Its name is released when it ends: wait until the bus no longer has it.
      await until(() => { try { search('mth-probe', 'ready'); return false; } catch { return true; } }, 'the first gnome-keyring-daemon did not leave the bus', bus);
    }
    await startKeyring(keyring === 'unlocked' ? 'throwaway password' : undefined);
    return { env, search, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls `ready` every 100 ms for up to 10 s; fails with `what` and the child's error output. */
async function until(ready: () => boolean, what: string, child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  for (let i = 0; i < 100; i++) {
    if (ready()) return;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: ${stderr.trim() || `exit ${child.exitCode}`}`);
}

/** Processes whose environment names this bus's socket (the daemons, and anything they started). */
function processesUsing(socket: string): string[] {
  const left: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(socket)) continue;
      if (pid === String(process.pid)) continue;
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmd) left.push(`${pid} ${cmd}`); // a zombie has no command line: it runs nothing
    } catch {
      // gone, or not ours to read
    }
  }
  return left;
}
