import * as vscode from 'vscode';
import { checkServerName } from '../../core/config/newServerEntry';
import type { InstallPlan } from '../../core/install/installPlan';
import { fillEntry } from '../../core/install/fillEntry';
import { installSandbox } from '../../core/install/installSandbox';
import { checkPlanEntry, renamePlan } from '../../core/install/planValues';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import { loadTransport } from '../../core/transport/load';
import type { UserDefinitions } from '../config/userDefinitions';
import { addUserServers, userServerNames } from '../config/userServers';
import { revealServer, reportStart, type AddServerDeps } from '../servers/addServerCommand';
import type { PromptEvents } from '../shared/promptEvents';
import { SECTION } from '../shared/section';
import { askInput, askSandbox, askText } from './installAsks';
import { reviewPlan } from './planReview';

/** What an install needs: Add Server's (the pool, the view), secret storage, the prompts' events, and how settings read an entry. */
export interface InstallDeps extends AddServerDeps {
  readonly definitions: UserDefinitions;
  readonly secrets: vscode.SecretStorage;
  readonly prompts: PromptEvents;
}

export interface InstallOptions {
  /** Runs after the user agreed to everything and before anything is written (a bundle unpacks here); a throw cancels. */
  readonly beforeWrite?: () => Promise<void>;
}

/**
 * Installs a stranger's server: shows the plan whole (what will run, what it asks for, its source's
 * claims as claims) and installs only on the user's "Install"; then its name, each value it asks
 * for, the sandbox where this machine can sandbox; then `beforeWrite`, its secrets into secret
 * storage, its entry into user settings (which starts it), and its row. A cancel at any step
 * writes and stores nothing. Returns the name it was installed under.
 */
export async function installServer(plan: InstallPlan, deps: InstallDeps, options: InstallOptions = {}): Promise<{ installed: string } | undefined> {
  const fail = (problem: string) => void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" was not installed: {1}', visibleLine(plan.name), sanitizeLine(problem)));
  const problem = checkPlanEntry(plan);
  if (problem) return fail(problem);
  const shown = deps.definitions.parse(plan.name, plan.entry);
  if (typeof shown === 'string') return fail(shown);
  if (!(await reviewPlan(plan, shown, deps.prompts))) return undefined;

  const taken = new Set([...deps.pool.connections.map((c) => c.name), ...userServerNames()]);
  const name = await askText(deps.prompts, {
    title: vscode.l10n.t('Install "{0}": name', visibleLine(plan.name)),
    prompt: vscode.l10n.t('A name for the server: it labels the server in the Tools view and in settings.'),
    value: freeName(plan.name, taken),
    check: (text) => checkServerName(text.trim(), taken),
  });
  if (name === undefined) return undefined;
  const named = renamePlan(plan, name.trim());

  // Values written into the entry: what is not secret, and `undefined` for an optional value left
  // empty (fillEntry leaves it out, with its flag or header). Secrets go to secret storage.
  const values = new Map<string, string | undefined>();
  const secrets = new Map<string, string>();
  for (const [i, input] of named.inputs.entries()) {
    const value = await askInput(deps.prompts, named.name, input, `${i + 1}/${named.inputs.length}`);
    if (value === undefined) return undefined;
    if (value === '' && !input.required) values.set(input.id, undefined);
    else if (input.secret) secrets.set(input.id, value);
    else values.set(input.id, value);
  }
  let entry = fillEntry(named, values);
  if (!('url' in entry) && entry.sandbox === undefined) {
    const sandbox = await offerSandbox(named, deps.prompts);
    if (sandbox === 'cancelled') return undefined;
    if (sandbox !== undefined) entry = { ...entry, sandbox };
  }
  const def = deps.definitions.parse(named.name, entry);
  if (typeof def === 'string') return fail(def);

  try {
    await options.beforeWrite?.();
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  // The secrets go first, under the keys its launch reads: the write starts the server.
  const stored: string[] = [];
  for (const [id, value] of secrets) {
    const key = deps.definitions.secretKey(def, id);
    await deps.secrets.store(key, value);
    stored.push(key);
  }
  // Never over another server: a name taken since it was checked is refused, not replaced.
  const added = await addUserServers([{ name: named.name, entry }], async () => false).catch((err: unknown) => (fail(err instanceof Error ? err.message : String(err)), []));
  if (added.length === 0) {
    for (const key of stored) await deps.secrets.delete(key);
    if (userServerNames().includes(named.name)) fail(vscode.l10n.t('your settings now hold another server named "{0}"', named.name));
    return undefined;
  }
  void reportStart(deps.pool, named.name);
  await revealServer(deps, named.name);
  return { installed: named.name };
}

/** `name`, or `name-2`, `name-3`... when the settings or the pool hold it. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`;
  return candidate;
}

/**
 * The sandbox to write into a local server's entry: offered only where this machine can sandbox,
 * the default sandbox setting is off (on, it is sandboxed already), and what runs it can run in one
 * (a container runs under its daemon, outside). Each sandbox lets the package's own installer
 * reach its registry and cache, nothing else.
 */
async function offerSandbox(plan: InstallPlan, prompts: PromptEvents): Promise<Readonly<Record<string, unknown>> | false | undefined | 'cancelled'> {
  const sandbox = installSandbox(plan.runsVia);
  const allows = ALLOWS[plan.runsVia];
  if ('none' in sandbox || !allows) return undefined;
  if (vscode.workspace.getConfiguration(SECTION).get<boolean>('sandbox.stdioByDefault')) return undefined;
  if (!(await loadTransport().sandboxCheck()).ok) return undefined;
  const answer = await askSandbox(prompts, plan.name, allows());
  if (answer === undefined) return 'cancelled';
  return answer ? sandbox.entry : false;
}

/** What each sandbox allows, in the user's language (the sandboxes themselves: installSandbox.ts). */
const ALLOWS: Partial<Record<InstallPlan['runsVia'], () => string>> = {
  npm: () => vscode.l10n.t('It may write only npm\'s cache (~/.npm) and reach only registry.npmjs.org (to fetch its package); change it in settings (sandbox).'),
  pypi: () => vscode.l10n.t('It may write only uv\'s cache and reach only pypi.org (to fetch its package); change it in settings (sandbox).'),
  mcpb: () => vscode.l10n.t('It may write nowhere and reach no network; change it in settings (sandbox).'),
};
