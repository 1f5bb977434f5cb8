import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../../core/calls/ports';
import { badgeDescription } from '../../core/tools/toolBadges';
import { sanitizeLine, shownArguments, shownName, shownTitle, visibleJson } from '../../core/render/sanitize';
import type { showDefinitionChanges } from './definitionDiff';
import type { showReadOnly } from '../shared/readOnlyDocuments';
import type { PromptEvents } from '../shared/promptEvents';
import { allowLikeThis } from '../rules/ruleProposalFlow';

interface DecisionItem extends vscode.QuickPickItem {
  readonly decision?: Exclude<ApprovalDecision, { kind: 'edit' } | { kind: 'rule-added' } | { kind: 'refused' }>;
  readonly action?: 'show-arguments' | 'edit-arguments' | 'show-changes' | 'allow-like-this' | 'show-rules' | 'accept-lock-drift';
}

/**
 * The approval prompt: a quick-pick that stays open on focus loss, titled with server, tool and
 * badges, showing the exact arguments (the full text one click away). Escape denies.
 */
export class QuickPickApprover implements Approver {
  /** `views` open read-only documents; they keep state, so they come from dist/extension.js, where this file is not. */
  constructor(
    private readonly _prompts: PromptEvents,
    private readonly _views: {
      readonly showReadOnly: typeof showReadOnly;
      readonly showDefinitionChanges: typeof showDefinitionChanges;
      /** Keeps, on this machine only, the tool's definition as accepted against the workspace lockfile that differs. */
      readonly acceptLockDrift?: (server: string, tool: ApprovalRequest['tool'], changed: { readonly parts: readonly string[]; readonly before: NonNullable<ApprovalRequest['changed']>['before']; readonly against: string }) => Promise<void>;
    },
  ) {}

  /** Waits its turn among the other prompts (PromptEvents.oneAtATime): an approval never hides an open elicitation. */
  approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    return this._prompts.oneAtATime(() => this._approve(request));
  }

  private async _approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const args = request.args;
    for (;;) {
      const picked = await pickDecision(request, this._prompts, this._views.acceptLockDrift !== undefined);
      switch (picked?.action) {
        case 'accept-lock-drift': {
          const changed = request.changed;
          if (changed?.against !== undefined) await this._views.acceptLockDrift?.(request.server, request.tool, { ...changed, against: changed.against });
          // This call is allowed once like any; the next ones are decided as if the lockfile agreed.
          return 'allow-once';
        }
        case 'show-arguments': {
          await this._views.showReadOnly(`/arguments/${encodeURIComponent(request.server)}/${encodeURIComponent(request.tool.name)} arguments.json`, visibleJson(args, 2));
          continue;
        }
        case 'show-rules':
          await vscode.commands.executeCommand('mcpToolHost.rules.focus');
          continue;
        case 'show-changes':
          if (request.changed) await this._views.showDefinitionChanges(request.server, request.tool, request.changed.before, request.changed.against !== undefined);
          continue;
        case 'allow-like-this': {
          const added = await allowLikeThis(request, this._prompts);
          if (added !== undefined) return { kind: 'rule-added', ...added };
          continue;
        }
        case 'edit-arguments': {
          const edited = await editArguments(args);
          if (edited) return { kind: 'edit', args: edited };
          continue;
        }
        default:
          return picked?.decision ?? 'deny';
      }
    }
  }
}

function items(request: ApprovalRequest, argsText: string, canAccept: boolean): DecisionItem[] {
  // The rule that decided to ask gets a row of its own (in full), the other reasons stay with "Allow once".
  const others = request.reasons.filter((r) => r !== request.rule);
  const why = others.length > 0 ? vscode.l10n.t('This call {0}.', others.join(' and ')) : undefined;
  const list: DecisionItem[] = [];
  if (request.rule) {
    const [head, tail] = splitRuleSentence(sanitizeLine(request.rule));
    list.push({ label: `$(law) ${head}`, action: 'show-rules', detail: tail ? `${tail} · ${vscode.l10n.t('Select to see the rules.')}` : vscode.l10n.t('Select to see the rules.') });
  }
  if (request.changed?.against) {
    list.push({
      label: `$(warning) ${vscode.l10n.t('This tool differs from the workspace lockfile: {0}', request.changed.parts.join(', '))}`,
      action: 'show-changes',
      detail: vscode.l10n.t('{0} locks another definition, so no approval covers it. Select to see the changes.', request.changed.against),
    });
    if (canAccept) {
      list.push({
        label: `$(check-all) ${vscode.l10n.t('Accept this definition on this machine, and allow this call')}`,
        action: 'accept-lock-drift',
        detail: vscode.l10n.t('The lockfile is not changed (it is the team\'s: update it with mcp-tool-host lock, in review). Calls ask again as any call would, and again here if the tool or the lockfile changes.'),
      });
    }
  } else if (request.changed) {
    list.push({
      label: `$(warning) ${vscode.l10n.t('The server changed this tool since you allowed it: {0}', request.changed.parts.join(', ') || vscode.l10n.t('definition'))}`,
      action: 'show-changes',
      detail: vscode.l10n.t('Your earlier approval is suspended. Select to see the changes.'),
    });
  }
  list.push({ label: `$(check) ${vscode.l10n.t('Allow once')}`, decision: 'allow-once', detail: why });
  // Under an ask rule a grant would not hold, so none is offered.
  if (request.offerToolGrants) {
    list.push(
      { label: `$(history) ${vscode.l10n.t('Allow this tool for this session')}`, decision: 'allow-tool-session' },
      { label: `$(pass-filled) ${vscode.l10n.t('Always allow this tool')}`, decision: 'allow-tool-always', detail: vscode.l10n.t('Until the tool changes or you revoke it (MCP Tool Host: Manage Approvals).') },
    );
  }
  if (request.offerServerGrant) {
    list.push({ label: `$(server) ${vscode.l10n.t('Allow every non-destructive tool of {0} for this session', shownName(request.server))}`, decision: 'allow-server-session' });
  }
  list.push(
    { label: `$(edit) ${vscode.l10n.t('Edit arguments...')}`, action: 'edit-arguments' },
    { label: `$(close) ${vscode.l10n.t('Deny')}`, decision: 'deny', detail: vscode.l10n.t('Nothing is sent to the server.') },
  );
  // Below Deny, in a group of its own: the keys that reach the allow items above stay the same.
  if (request.offerRule) {
    list.push(
      { label: vscode.l10n.t('rules'), kind: vscode.QuickPickItemKind.Separator },
      { label: `$(law) ${vscode.l10n.t('Allow calls like this one...')}`, action: 'allow-like-this', detail: vscode.l10n.t('Save a rule for these arguments (their folder, these values or any) to your user settings.') },
    );
  }
  list.push(
    { label: vscode.l10n.t('arguments'), kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(json) ${vscode.l10n.t('Show full arguments')}`,
      action: 'show-arguments',
      detail: argsText.length > 200 ? `${argsText.slice(0, 197)}… ${vscode.l10n.t('({0} characters: select to see all)', argsText.length)}` : argsText,
    },
  );
  return list;
}

/** How long after it appears the approval prompt starts taking an "allow" (a person reads before allowing). */
const APPROVAL_ARM_MS = 500;

async function pickDecision(request: ApprovalRequest, prompts: PromptEvents, canAccept: boolean): Promise<DecisionItem | undefined> {
  // Arguments as they will be sent, with hidden and direction characters shown as escapes.
  const argsText = shownArguments(request.args);
  const qp = vscode.window.createQuickPick<DecisionItem>();
  try {
    // The server chooses the title; the name beside it is what the call really runs.
    const title = shownTitle(request.tool);
    const name = shownName(request.tool.name);
    const tool = title === name ? `"${title}"` : `"${title}" (${name})`;
    qp.title = request.origin === 'app'
      ? // Not the user's click: the tool's own interface (MCP Apps) asked for this call.
        vscode.l10n.t("The tool's interface asks: approve {0} on {1}? [{2}]", tool, shownName(request.server), badgeDescription(request.annotations))
      : request.origin === 'lm-tool'
        ? // Not the user's click either: a chat's language model asked, through our language-model tools.
          vscode.l10n.t("A chat's language model asks: approve {0} on {1}? [{2}]", tool, shownName(request.server), badgeDescription(request.annotations))
        : request.origin === 'gateway'
          ? // An agent outside the extension (VS Code's agent mode, through the gateway): only this prompt decides.
            vscode.l10n.t('An agent asks through the gateway: approve {0} on {1}? [{2}]', tool, shownName(request.server), badgeDescription(request.annotations))
          : vscode.l10n.t('Approve {0} on {1}? [{2}]', tool, shownName(request.server), badgeDescription(request.annotations));
    qp.placeholder = vscode.l10n.t('Arguments: {0}', argsText.length > 300 ? `${argsText.slice(0, 297)}…` : argsText);
    qp.ignoreFocusOut = true;
    qp.matchOnDetail = true;
    qp.items = items(request, argsText, canAccept);
    // An approval is a deliberate act: a destructive call starts on "Deny", so a hurried Enter
    // (the second of a double Enter that finished the arguments) cannot allow it. So does a call of a
    // tool whose definition changed since it was trusted (by you, or by the team's lockfile): its
    // read-only hint is the changed server's word, and the change is what the prompt is there to show.
    const startsOnDeny = request.annotations.destructive.value || request.changed !== undefined;
    const preselected = qp.items.find((i) => i.decision === (startsOnDeny ? 'deny' : 'allow-once'));
    if (preselected) qp.activeItems = [preselected];
    const shownAt = performance.now();
    return await new Promise<DecisionItem | undefined>((resolve) => {
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0];
        // A keystroke typed before the prompt could be read never allows anything.
        const allows = picked?.decision?.startsWith('allow') === true || picked?.action === 'allow-like-this' || picked?.action === 'accept-lock-drift';
        if (allows && performance.now() - shownAt < APPROVAL_ARM_MS) return;
        resolve(picked);
      });
      qp.onDidHide(() => resolve(undefined));
      prompts.show(qp, APPROVAL_ARM_MS);
    });
  } finally {
    qp.dispose();
  }
}

/** "needs approval by rule 'x' (user settings): why" -> ["Needs approval by rule 'x' (user settings)", "why"] */
function splitRuleSentence(sentence: string): [string, string | undefined] {
  const cut = sentence.indexOf('): ');
  const head = cut < 0 ? sentence : sentence.slice(0, cut + 1);
  return [head.charAt(0).toUpperCase() + head.slice(1), cut < 0 ? undefined : sentence.slice(cut + 3)];
}

async function editArguments(args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Edit the arguments (JSON)'),
    value: visibleJson(args), // the same value, its hidden characters as escapes
    ignoreFocusOut: true,
    validateInput: (t) => {
      try {
        const v: unknown = JSON.parse(t);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : vscode.l10n.t('Enter a JSON object.');
      } catch (err) {
        return vscode.l10n.t('Not valid JSON: {0}', err instanceof Error ? err.message : String(err));
      }
    },
  });
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}
