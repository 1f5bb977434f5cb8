import * as vscode from 'vscode';
import { launchFingerprint, type ServerDefinition } from '../core/config/serverConfig';
import { sanitizeLine, visibleLine } from '../core/render/sanitize';
import type { PromptEvents } from './promptEvents';

interface Choice extends vscode.QuickPickItem {
  readonly start?: boolean;
}

/**
 * Workspace trust for servers a workspace defines: their first start, and any start after their
 * launch definition (command, args, env, cwd, url) changed, asks the user, showing the exact
 * command line. Servers from user settings start without asking.
 */
export class LaunchGate {
  constructor(
    private readonly _state: vscode.Memento,
    private readonly _prompts: PromptEvents,
  ) {}

  /** Asks when the launch is new or changed; `waiting` tells the server's row that the start waits for the user. */
  async confirm(def: ServerDefinition, shownLaunch: string, waiting: (message: string) => void = () => undefined): Promise<boolean> {
    if (def.source !== 'workspace') return true;
    const key = `launchApproved:${def.name}`;
    const fingerprint = launchFingerprint(def.spec);
    const previous = this._state.get<string>(key);
    if (previous === fingerprint) return true;
    waiting(vscode.l10n.t('Waiting for you to allow it to start'));
    const start = await ask(def, shownLaunch, previous !== undefined, this._prompts);
    if (start) await this._state.update(key, fingerprint);
    return start;
  }
}

async function ask(def: ServerDefinition, shownLaunch: string, changed: boolean, prompts: PromptEvents): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Choice>();
  try {
    qp.title = changed
      ? vscode.l10n.t('The workspace changed how server "{0}" starts. Run it?', def.name)
      : vscode.l10n.t('Run server "{0}" defined by this workspace?', def.name);
    qp.ignoreFocusOut = true;
    qp.placeholder = vscode.l10n.t('Start it only if you trust what it runs');
    // What will run, whole: the command line in rows (a row's text is cut at the prompt's width),
    // then where and with what environment, and the trust the server gets. The workspace wrote
    // all of it: nothing hidden (visibleLine, sanitizeLine).
    const facts: Choice[] = [
      ...commandRows(visibleLine(shownLaunch)).map((row) => ({ label: row, alwaysShow: true })),
      ...launchFacts(def).map((label) => ({ label, alwaysShow: true })),
    ];
    const startItem: Choice = { label: `$(play) ${vscode.l10n.t('Start server')}`, start: true };
    qp.items = [
      { label: def.spec.type === 'stdio' ? vscode.l10n.t('It will run') : vscode.l10n.t('It will connect to'), kind: vscode.QuickPickItemKind.Separator },
      ...facts,
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      startItem,
      { label: `$(circle-slash) ${vscode.l10n.t('Do not start')}`, start: false },
    ];
    qp.activeItems = [startItem];
    return await new Promise<boolean>((resolve) => {
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0];
        if (picked?.start === undefined) return; // a row of facts: nothing to do
        resolve(picked.start);
      });
      qp.onDidHide(() => resolve(false));
      prompts.show(qp);
    });
  } finally {
    qp.dispose();
  }
}

/** How much of the command line one row shows: rows are cut beyond the prompt's width. */
const ROW_CHARS = 72;

/** The command line in rows of at most ROW_CHARS, broken at spaces where it can be (a long word is split). */
export function commandRows(line: string): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of line.split(' ')) {
    for (let piece = word; piece.length > 0; piece = piece.slice(ROW_CHARS)) {
      const part = piece.slice(0, ROW_CHARS);
      if (row && row.length + 1 + part.length > ROW_CHARS) {
        rows.push(row);
        row = '';
      }
      row = row ? `${row} ${part}` : part;
    }
  }
  if (row) rows.push(row);
  return rows.map((r, i) => `${i === 0 ? '$(terminal)' : '$(blank)'} ${r}`);
}

/** Where it runs, with what environment, and the trust its tool hints get: one row each. */
function launchFacts(def: ServerDefinition): string[] {
  const spec = def.spec;
  // The trust the server will get: with untrusted hints every call asks.
  const trust = def.trustAnnotations ? vscode.l10n.t('$(shield) Tool hints trusted (your mcpToolHost.trustedWorkspaceServers)') : vscode.l10n.t('$(shield) Tool hints not trusted: every call asks first');
  if (spec.type !== 'stdio') return [trust];
  const env = Object.keys(spec.env).map(sanitizeLine).join(', ');
  return [
    ...(spec.cwd ? [vscode.l10n.t('$(folder) In {0}', sanitizeLine(spec.cwd))] : []),
    env ? vscode.l10n.t('$(symbol-variable) Environment: yours, plus {0}', env) : vscode.l10n.t('$(symbol-variable) Environment: yours, nothing added'),
    trust,
  ];
}
