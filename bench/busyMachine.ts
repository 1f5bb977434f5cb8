import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';

/**
 * `--busy`: the machine made busy on purpose, so "holds on a busy machine" is a run anyone can
 * repeat rather than a matter of who else was using it. One process spinning on every core, at
 * the bench's own priority, for the whole run; each competes with the bench, its servers and
 * the garbage collector's helper threads.
 */
export function startSpinners(): { readonly count: number; stop(): void } {
  const count = os.availableParallelism();
  const spinners: ChildProcess[] = [];
  for (let i = 0; i < count; i++) spinners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const stop = () => {
    for (const s of spinners) s.kill('SIGKILL');
  };
  process.once('exit', stop);
  return { count, stop };
}
