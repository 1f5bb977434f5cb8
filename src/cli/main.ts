// The CLI's entry: it parses the command line and prints the help with nothing else loaded; a
// command loads the rest (commands.ts) when it runs. In dist/ the rest is a bundle of its own
// (dist/cli-commands.js, esbuild.mjs), so `--help` and a usage error start in a fraction of the time.
import { Exit, parseArgs, USAGE, type CliArgs } from './args';
import { enableCompileCache } from './compileCache';
import { failure } from './failure';
import type * as Commands from './commands';
import type * as EarlyLaunch from './earlyLaunch';

/** The commands, loaded on first use (a static import would load them with this file). */
function loadCommands(): typeof Commands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./commands') as typeof Commands;
}

/**
 * The early launch of a command's server (earlyLaunch.ts), its checks' code loaded for `call` and
 * `tools` only; undefined when it cannot be loaded (the normal order then starts the server).
 */
function launchEarly(command: CliArgs & { readonly command: string }): ReturnType<typeof EarlyLaunch.launchEarly> {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('./earlyLaunch') as typeof EarlyLaunch).launchEarly(command);
  } catch {
    return undefined;
  }
}

/**
 * Exits once everything printed has left the process: on a pipe, stdout is written asynchronously,
 * and process.exit() drops what a slower reader has not taken yet (all but 64 KiB of a 16 MiB skill).
 */
function exitWhenFlushed(code: number): void {
  let left = 2;
  const done = () => --left === 0 && process.exit(code);
  process.stdout.write('', done);
  process.stderr.write('', done);
}

const argv = process.argv.slice(2);
let parsed: CliArgs | undefined;
try {
  parsed = parseArgs(argv);
} catch (err) {
  exitWhenFlushed(failure(err, argv.includes('--json')));
}
if (parsed && (parsed.help || parsed.command === undefined)) {
  console.log(USAGE);
  exitWhenFlushed(parsed.help ? Exit.ok : Exit.usage);
} else if (parsed?.command !== undefined) {
  const command = { ...parsed, command: parsed.command };
  // The shutdown sequence waits on unref'd timers (they must not hold an editor open); here they
  // would let Node exit mid-shutdown with code 0, so hold the loop until the command is done.
  const keepAlive = setInterval(() => undefined, 60_000);
  // Before the bundles below load: their compiled code comes from the cache when it is there.
  enableCompileCache();
  // The server of `call` or `tools` starts in its own process while the commands' code loads here.
  const early = command.command === 'call' || command.command === 'tools' ? launchEarly(command) : undefined;
  loadCommands()
    .runCommand(command, early)
    .then(exitWhenFlushed, (err: unknown) => exitWhenFlushed(failure(err, command.json)))
    .finally(() => clearInterval(keepAlive));
}
