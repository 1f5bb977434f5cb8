import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES } from './helpers';
import { CLI } from './cliRun';

/** Pids of the processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function waitFor(what: string, probe: () => boolean, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; !probe(); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * A signal to the CLI while a server is still starting (it never answers initialize): the CLI
 * stops the server as at a normal end and exits as the signal would have. A server runs in a
 * process group of its own, so a terminal's Ctrl+C never reached it: it outlived the CLI.
 */
describe('the CLI stopped by a signal while a server starts leaves no server behind (node dist/cli.js, real processes)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-signals-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [signal, command] of [['SIGINT', ['tools']], ['SIGTERM', ['call', 'hang', 'anything']], ['SIGHUP', ['doctor']]] as const) {
    it(`${signal} during \`${command.join(' ')}\``, async function () {
      if (process.platform === 'win32') this.skip();
      const marker = `marker-${signal}-${process.pid}-${Date.now()}`;
      const config = path.join(dir, `${signal}.json`);
      fs.writeFileSync(config, JSON.stringify({ servers: { hang: { command: process.execPath, args: [path.join(FIXTURES, 'hang-at-initialize.cjs'), marker] } } }));
      const cli = spawn(process.execPath, [CLI, ...command, '--config', config], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') }, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
      try {
        await waitFor('the server to start', () => processesWith(marker).length > 0);
        cli.kill(signal);
        assert.equal(await exited, 128 + os.constants.signals[signal]);
        await waitFor('the server to be stopped', () => processesWith(marker).length === 0);
      } finally {
        for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
        cli.kill('SIGKILL');
      }
    });
  }
});
