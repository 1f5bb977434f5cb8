// The server of `call` (and `tools`) spawned before the commands' code loads: loading it takes about
// as long as the server's own start, and the two overlap instead of adding up. In dist/ this file is
// a bundle of its own (dist/cli-launch.js, esbuild.mjs), loaded by main.ts for these commands only.
//
// It spawns only what the normal path would spawn, after the same checks, run by the same code: the
// command line, the config (and whether a repository carries it), the rules files, the launch's
// variables, the administrator's allowlist, the executable. Anything it cannot decide alone is left
// to the normal order: a sandboxed, remote, dev-mode or disabled server, an `${input}`, several
// servers, any error (the normal path then says it, in its own words). The normal path runs every
// check again and adopts the process only if the launch it resolved is exactly this one.
import { randomUUID } from 'node:crypto';
import type { CliArgs } from './args';
import { parseArgsJson } from './argsJson';
import { exitOnStopSignals } from './signalOwners';
import { readCliRules } from './cliRules';
import { loadConfig, selectServers } from './config';
import { checkCommandLine } from './usage';
import { cliVariables, cliWorkspace } from './workspace';
import { resolveLaunch } from '../core/config/launch';
import { resolveExecutable, type StdioLaunch } from '../core/transport/commandLine';
import { discardEarly, sameLaunch, spawnEarly, type EarlyServer } from '../core/transport/serverSpawn';

/** A server spawned early, until a transport adopts it or the command ends. */
export interface EarlyLaunch {
  /** The early server when it runs exactly `launch` (then it is the caller's); otherwise it is ended and undefined returned. */
  adopt(launch: StdioLaunch): EarlyServer | undefined;
  /** Ends it if nothing adopted it (the command failed before its server started). */
  discard(): void;
}

/** Spawns the one stdio server a `call` or `tools` command line is about, when every check passes; undefined otherwise. */
export function launchEarly(args: CliArgs & { readonly command: string }): EarlyLaunch | undefined {
  if (args.command !== 'call' && args.command !== 'tools') return undefined;
  let early: EarlyServer | undefined;
  try {
    const { command, server, tool } = checkCommandLine(args);
    if (command === 'call') {
      if (!server || !tool) return undefined;
      parseArgsJson(args.args);
    }
    const config = loadConfig(args.config, { trust: args.trustConfig });
    const selected = selectServers(config, server);
    if (selected.length !== 1) return undefined;
    readCliRules(args.rules, cliWorkspace(args.config));
    const definition = selected[0];
    const spec = definition.spec;
    if (definition.disabled || spec.type !== 'stdio' || spec.sandbox || spec.dev) return undefined;
    // The allowlist judges here as in the normal path; a registry-name entry not yet asked about allows nothing here.
    const launch = resolveLaunch(definition, cliVariables(args.config));
    if (launch.type !== 'stdio' || launch.sandbox) return undefined;
    const executable = resolveExecutable(launch.launch.command, launch.launch.env, launch.launch.cwd);
    if (!executable) return undefined;
    early = spawnEarly({ ...launch.launch, command: executable }, randomUUID());
  } catch {
    return undefined;
  }
  // Until a transport adopts it, a signal to the CLI ends the server too: it runs in a process group
  // of its own, so a terminal's Ctrl+C does not reach it (commands.ts stops adopted ones).
  const unhear = exitOnStopSignals(() => {
    if (early) discardEarly(early);
  });
  return {
    adopt(launch) {
      const taken = early;
      early = undefined;
      unhear();
      if (!taken || sameLaunch(taken.launch, launch)) return taken;
      discardEarly(taken);
      return undefined;
    },
    discard() {
      if (early) discardEarly(early);
      early = undefined;
      unhear();
    },
  };
}
