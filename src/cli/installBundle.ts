import * as os from 'node:os';
import * as path from 'node:path';
import { checkServerName } from '../core/config/newServerEntry';
import type { BundleInstall } from '../core/install/bundle';
import { fillEntry } from '../core/install/fillEntry';
import type { InstallInput } from '../core/install/installPlan';
import { loadInstall } from '../core/install/load';
import { sanitizeLine, shownName, visibleLine } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import { agreed, askLine, readConfigForWrite, writeServer } from './configWrite';
import { sandboxHint, sandboxLine, wantedSandbox } from './installSandbox';

export interface InstallBundleOptions {
  readonly file: string;
  readonly config: string;
  readonly name?: string;
  /** `KEY=value` pairs for the bundle's user_config (a secret's value names an environment variable). */
  readonly set: readonly string[];
  readonly yes: boolean;
  /** Write the bundle's sandbox (no writes, no network) into the entry. */
  readonly sandbox: boolean;
}

/** Where bundles are unpacked: $XDG_DATA_HOME/mcp-tool-host/bundles, ~/.local/share without it. */
export function bundlesRoot(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(data, 'mcp-tool-host', 'bundles');
}

/**
 * `install-bundle FILE`: reads and checks the bundle, prints exactly what will run and what the
 * bundle claims (as claims), asks on a terminal (--yes without one), unpacks it, and writes the
 * entry into the --config file, keeping everything else in it. Secrets are never written: the
 * entry reads them from an environment variable (`${env:VAR}`) when the server starts.
 */
export async function installBundle(options: InstallBundleOptions): Promise<ExitCode> {
  const { readBundle, BundleError } = loadInstall();
  const config = readConfigForWrite(options.config);
  if (options.name !== undefined) {
    const problem = checkServerName(options.name, new Set());
    if (problem) throw new CliError(`--name "${shownName(options.name)}": ${problem}`);
  }
  // Asked for before the bundle is read: a machine that cannot sandbox says so at once.
  const sandbox = options.sandbox ? await wantedSandbox('mcpb') : undefined;
  let bundle: BundleInstall;
  try {
    bundle = await readBundle(options.file, { root: bundlesRoot(), name: options.name });
  } catch (err) {
    if (err instanceof BundleError) throw new CliError(`Not installed: ${err.message}`);
    throw err;
  }
  const { plan } = bundle;
  if (config.names.has(plan.name)) throw new CliError(`${options.config} already has a server named "${shownName(plan.name)}"; choose another with --name.`);
  const values = await inputValues(plan.inputs, plan.name, options);
  const entry = fillEntry(plan, values);
  if (sandbox) entry.sandbox = sandbox;

  const out = process.stdout;
  out.write(`Bundle ${visibleLine(options.file)}${os.EOL}`);
  out.write(`  ${plan.origin.slice(plan.origin.lastIndexOf(' ') + 1)}${os.EOL}`);
  out.write(`Will run (as server "${shownName(plan.name)}"):${os.EOL}  ${commandLine(entry)}${os.EOL}`);
  for (const [k, v] of Object.entries((entry.env ?? {}) as Record<string, string>)) out.write(`  env ${visibleLine(k)}=${visibleLine(v)}${os.EOL}`);
  if (sandbox) out.write(`${sandboxLine(sandbox)}${os.EOL}`);
  out.write(`Unpacked to: ${visibleLine(bundle.unpackDir)}${os.EOL}`);
  out.write(`What the bundle says about itself (claims, not checked, except the signature):${os.EOL}`);
  for (const c of plan.claims) out.write(`  ${c.label}: ${c.value}${os.EOL}`);
  const hint = await sandboxHint('mcpb', options);
  if (hint) out.write(`${hint}${os.EOL}`);

  if (!options.yes) {
    if (!process.stdin.isTTY) {
      process.stderr.write(`Not installed: nothing was asked, as there is no terminal; pass --yes to install.${os.EOL}`);
      return Exit.approval;
    }
    if (!(await agreed(false, `Install "${shownName(plan.name)}" and let it run as above? [y/N] `))) {
      process.stderr.write(`Not installed.${os.EOL}`);
      return Exit.approval;
    }
  }
  await bundle.unpack();
  writeServer(options.config, config, plan.name, entry);
  out.write(`Installed "${shownName(plan.name)}" into ${visibleLine(options.config)}. Its tools: mcp-tool-host tools ${JSON.stringify(plan.name)} --config ${JSON.stringify(options.config)}${os.EOL}`);
  return Exit.ok;
}

/**
 * A value for each input: a secret becomes `${env:VAR}` (VAR from --set KEY=VAR, else KEY in upper
 * case); any other from --set, else asked on a terminal (its default offered), else its default.
 */
async function inputValues(inputs: readonly InstallInput[], server: string, options: InstallBundleOptions): Promise<Map<string, string>> {
  const given = new Map<string, string>();
  for (const pair of options.set) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`--set needs KEY=value, not "${shownName(pair)}".`, Exit.usage, true);
    given.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const keyOf = (input: InstallInput) => input.id.slice(input.id.indexOf('.') + 1);
  const unknown = [...given.keys()].filter((k) => !inputs.some((i) => keyOf(i) === k));
  if (unknown.length > 0) throw new CliError(`--set ${shownName(unknown[0])}: the bundle has no such setting. It has: ${inputs.map(keyOf).join(', ') || 'none'}.`, Exit.usage);
  const values = new Map<string, string>();
  for (const input of inputs) {
    const key = keyOf(input);
    const value = given.get(key);
    if (input.secret) {
      const variable = value ?? key.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new CliError(`--set ${key}=...: ${sanitizeLine(input.label)} is a secret, so its value names the environment variable to read it from (letters, digits, _), never the secret itself.`, Exit.usage);
      process.stderr.write(`${sanitizeLine(input.label)} (${key}) is a secret: "${shownName(server)}" reads it from the environment variable ${variable} when it starts.${os.EOL}`);
      values.set(input.id, `\${env:${variable}}`);
    } else if (value !== undefined) {
      values.set(input.id, value);
    } else if (process.stdin.isTTY && !options.yes) {
      const answer = (await askLine(`${sanitizeLine(input.label)} (${key})${input.description ? `: ${input.description}` : ''}${input.default !== undefined ? ` [${input.default}]` : ''} `)).trim();
      values.set(input.id, answer || input.default || '');
    } else if (input.default !== undefined) {
      values.set(input.id, input.default);
    } else if (input.required) {
      throw new CliError(`The bundle needs ${sanitizeLine(input.label)}: pass --set ${key}=value.`, Exit.usage);
    } else {
      values.set(input.id, '');
    }
  }
  return values;
}

/** The command and its arguments as one line, each word quoted when it needs it, hidden characters escaped. */
function commandLine(entry: Readonly<Record<string, unknown>>): string {
  const word = (w: string) => (/^[\w@%+=:,./${}-]+$/.test(w) ? visibleLine(w) : visibleLine(JSON.stringify(w)));
  return [String(entry.command), ...((entry.args as string[] | undefined) ?? [])].map(word).join(' ');
}
