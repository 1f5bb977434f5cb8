import type { InstallPlan } from '../core/install/installPlan';
import { installSandbox } from '../core/install/installSandbox';
import { loadTransport } from '../core/transport/load';
import { visibleJson } from '../core/render/sanitize';
import { CliError, Exit } from './args';

/**
 * The sandbox --sandbox writes into the entry of a server run via `runsVia` (the one VS Code
 * offers); refused, saying why, where there is none for it or this machine cannot sandbox: an entry
 * that asks for a sandbox the machine cannot give would be refused at every start.
 */
export async function wantedSandbox(runsVia: InstallPlan['runsVia']): Promise<Readonly<Record<string, unknown>>> {
  const sandbox = installSandbox(runsVia);
  if ('none' in sandbox) throw new CliError(`--sandbox: ${sandbox.none}. Nothing was written.`, Exit.usage);
  const check = await loadTransport().sandboxCheck();
  if (!check.ok) throw new CliError(`--sandbox: this machine cannot sandbox a server: ${check.reason.replace(/\.?$/, '.')} Nothing was written.`);
  return sandbox.entry;
}

/**
 * What a user on a terminal, about to be asked, reads after what will run: that it could run in a
 * sandbox here, and how. Nothing when they asked for one, will not be asked, or cannot have one.
 */
export async function sandboxHint(runsVia: InstallPlan['runsVia'], asked: { readonly yes: boolean; readonly sandbox: boolean }): Promise<string | undefined> {
  if (asked.sandbox || asked.yes || !process.stdin.isTTY) return undefined;
  const sandbox = installSandbox(runsVia);
  if ('none' in sandbox || !(await loadTransport().sandboxCheck()).ok) return undefined;
  return `This machine can run it in a sandbox: add --sandbox. ${sandbox.allows}`;
}

/** The sandbox as the what-will-run text says it. */
export function sandboxLine(sandbox: unknown): string {
  return `  in a sandbox: ${visibleJson(sandbox)}`;
}
