import * as vscode from 'vscode';
import { LOG_LEVELS, type LogLevel } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import { pickServer } from './pickOffer';
import type { ResourceDeps } from './resourceDeps';

/** "Set Log Level...": the 8 levels of the spec, most detail first; the server's messages at that level and above go to its log. */
export async function setLogLevel(deps: ResourceDeps, server?: string, level?: LogLevel): Promise<LogLevel | undefined> {
  const name = server ?? (await pickServer(deps.pool, vscode.l10n.t('Set the log level of which server?')));
  if (!name) return undefined;
  const chosen =
    level ??
    (
      await vscode.window.showQuickPick(
        LOG_LEVELS.map((l) => ({ label: l, level: l })),
        { title: vscode.l10n.t('Log level of {0}', shownName(name)), placeHolder: vscode.l10n.t('The server sends its log messages at this level and above') },
      )
    )?.level;
  if (!chosen) return undefined;
  try {
    await deps.offers.prompts().setLogLevel(name, chosen);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not set the log level of {0}: {1}', shownName(name), sanitizeLine(err instanceof Error ? err.message : String(err))));
    return undefined;
  }
  deps.logs.logFor(name).info(vscode.l10n.t('Log level set to {0}.', chosen));
  vscode.window.setStatusBarMessage(vscode.l10n.t('{0} logs at level {1}', shownName(name), chosen), 3000);
  return chosen;
}
