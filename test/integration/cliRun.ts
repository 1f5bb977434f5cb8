import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './helpers';

export const CLI = path.join(ROOT, 'dist/cli.js');

/** A line typed at a question, or a function of the terminal's output so far that gives it. */
export type TerminalAnswer = string | ((output: string) => string | Promise<string>);

/** How one run of the CLI ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the built CLI as a real child process, stdin a pipe (not a terminal), with exactly `env`. */
export function runCli(args: readonly string[], options: { readonly cwd?: string; readonly env: NodeJS.ProcessEnv }): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/**
 * Resolves once the access token that the CLI's file store `credentials` keeps for `server` has
 * expired by its own lifetime (from when it was kept: the server granted it a moment before).
 */
export async function keptTokenExpired(credentials: string, server = 'remote'): Promise<void> {
  const entries = (JSON.parse(fs.readFileSync(credentials, 'utf8')) as { entries: Record<string, string> }).entries;
  const kept = JSON.parse(entries[`mcpToolHost.oauth.${server}`]) as { tokens: { expires_in: number }; tokensSavedAt: number };
  const expiry = kept.tokensSavedAt + kept.tokens.expires_in * 1000;
  while (Date.now() <= expiry) await new Promise((r) => setTimeout(r, Math.min(100, expiry - Date.now() + 1)));
}

/**
 * Runs the built CLI on a real terminal (a pseudo-terminal from util-linux `script`), typing
 * `answers` one line each whenever it waits at a question ("…: ", "[y/N]: " or "[y/N] "), with exactly
 * `env`; an answer may be a function of what the terminal showed so far, run before it is typed.
 * Returns everything the terminal showed.
 */
export function runOnTerminal(args: readonly string[], answers: readonly TerminalAnswer[], options: { readonly cwd?: string; readonly env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let mark = 0; // where the output stood at the last answer: each question is answered once
    const left = [...answers];
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      output += t;
      // A question ends in ": " or "] ", then readline's cursor move (ESC [ n G).
      if (left.length === 0 || !/[:\]] (.\[\d*G)?$/.test(output.slice(mark))) return;
      mark = output.length;
      const answer = left.shift()!;
      void Promise.resolve(typeof answer === 'string' ? answer : answer(output)).then((text) => child.stdin.write(`${text}\r`));
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => (output += t));
    // Ends before the test's own timeout, so a CLI that waits forever fails this test, not the run
    // (a child left running keeps mocha from exiting: a path with a space once hung all of npm test here).
    const deadline = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    });
  });
}
