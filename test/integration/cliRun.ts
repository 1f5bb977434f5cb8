import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ROOT } from './helpers';

export const CLI = path.join(ROOT, 'dist/cli.js');

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
