import * as vscode from 'vscode';
import type { InstallPlan } from '../../core/install/installPlan';
import type { ServerDefinition } from '../../core/config/serverConfig';
import { formatCommandLine } from '../../core/transport/commandLine';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import { commandRows, launchFacts, rows } from '../servers/launchPrompt';
import type { PromptEvents } from '../shared/promptEvents';

interface Choice extends vscode.QuickPickItem {
  readonly install?: boolean;
}

/** How long after it appears the prompt takes an answer (the launch prompt's discipline). */
export const REVIEW_ARM_MS = 500;
/** How much of one claim is shown: a source may send megabytes of description. */
const CLAIM_CHARS = 600;

/** What its source is called in the claims' heading. */
function sourceName(plan: InstallPlan): string {
  if (plan.runsVia !== 'mcpb') return vscode.l10n.t('the registry');
  // A bundle found in a registry: the claims are the bundle's, then the registry's ("Registry: ...").
  return plan.origin.startsWith('registry ') ? vscode.l10n.t('the bundle and the registry') : vscode.l10n.t('the bundle');
}

/**
 * The plan whole, before anything is written or run: what will run (the launch prompt's rows:
 * command line, environment, sandbox, trust), what it will ask for, where it came from, and what its
 * source says about it under a heading that says these are claims. Starts on "Do not install" and
 * takes no answer in its first REVIEW_ARM_MS. True: install.
 */
export async function reviewPlan(plan: InstallPlan, def: ServerDefinition, prompts: PromptEvents): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Choice>();
  try {
    qp.title = vscode.l10n.t('Install server "{0}"?', visibleLine(plan.name));
    qp.placeholder = vscode.l10n.t('Install it only if you trust what it runs; nothing is written or run before you choose');
    qp.ignoreFocusOut = true;
    qp.matchOnDescription = false;
    const fact = (label: string): Choice => ({ label, alwaysShow: true });
    const spec = def.spec;
    const launch = spec.type === 'stdio' ? formatCommandLine(spec.command, spec.args) : spec.url;
    const asks = plan.inputs.map((i) =>
      fact(`${i.secret ? '$(key)' : '$(symbol-variable)'} ${visibleLine(i.label)}${i.secret ? ` ${vscode.l10n.t('(secret: kept in secret storage)')}` : ''}${i.required ? '' : ` ${vscode.l10n.t('(optional)')}`}`),
    );
    const claims = plan.claims.flatMap((c) => rows(`${sanitizeLine(c.label)}: ${visibleLine(cut(c.value))}`, '$(quote)')).map(fact);
    const doNotInstall: Choice = { label: `$(circle-slash) ${vscode.l10n.t('Do not install')}`, install: false };
    qp.items = [
      { label: spec.type === 'stdio' ? vscode.l10n.t('It will run') : vscode.l10n.t('It will connect to'), kind: vscode.QuickPickItemKind.Separator },
      ...[...commandRows(visibleLine(launch)), ...launchFacts(def)].map(fact),
      ...(asks.length ? [{ label: vscode.l10n.t('It will ask you for'), kind: vscode.QuickPickItemKind.Separator }, ...asks] : []),
      { label: vscode.l10n.t('From'), kind: vscode.QuickPickItemKind.Separator },
      ...rows(visibleLine(cut(plan.origin)), '$(package)').map(fact),
      // The heading is a row of its own: a separator's label sits at the right of the row after it
      // and cuts that row's text, here the first claim.
      ...(claims.length ? [{ label: '', kind: vscode.QuickPickItemKind.Separator }, fact(`$(info) ${vscode.l10n.t('What {0} claims about it (not checked)', sourceName(plan))}`), ...claims] : []),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(cloud-download) ${vscode.l10n.t('Install')}`, description: vscode.l10n.t('then name it, give its values, and start it'), install: true },
      doNotInstall,
    ];
    // Installing a stranger's code is a deliberate act: the prompt starts on "Do not install", and
    // nothing typed before it could be read answers it.
    qp.activeItems = [doNotInstall];
    const shownAt = performance.now();
    return await new Promise<boolean>((resolve) => {
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0];
        if (picked?.install === undefined) return; // a row of facts
        if (performance.now() - shownAt < REVIEW_ARM_MS) return;
        resolve(picked.install);
      });
      qp.onDidHide(() => resolve(false));
      prompts.show(qp, REVIEW_ARM_MS);
    });
  } finally {
    qp.dispose();
  }
}

function cut(text: string): string {
  return text.length > CLAIM_CHARS ? `${text.slice(0, CLAIM_CHARS)}…` : text;
}
