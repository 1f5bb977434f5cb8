import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/calls/ports';
import { displayName } from '../core/tools/annotations';
import { badgeDescription } from '../core/tools/toolBadges';
import { sanitizeLine } from '../core/render/sanitize';
import { showDefinitionChanges } from './definitionDiff';

interface DecisionItem extends vscode.QuickPickItem {
  readonly decision?: Exclude<ApprovalDecision, { kind: 'edit' }>;
  readonly action?: 'show-arguments' | 'edit-arguments' | 'show-changes';
}

/**
 * The approval prompt: a quick-pick that stays open on focus loss, titled with server, tool and
 * badges, showing the exact arguments (the full text one click away). Escape denies.
 */
export class QuickPickApprover implements Approver {
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const args = request.args;
    for (;;) {
      const picked = await pickDecision(request);
      switch (picked?.action) {
        case 'show-arguments': {
          const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(args, null, 2) });
          await vscode.window.showTextDocument(doc, { preview: true });
          continue;
        }
        case 'show-changes':
          if (request.changed) await showDefinitionChanges(request.server, request.tool, request.changed.before);
          continue;
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

function items(request: ApprovalRequest, argsText: string): DecisionItem[] {
  const why = `This call ${request.reasons.join(' and ')}.`;
  const list: DecisionItem[] = [];
  if (request.changed) {
    list.push({ label: `$(warning) The server changed this tool since you allowed it: ${request.changed.parts.join(', ') || 'definition'}`, action: 'show-changes', detail: 'Your earlier approval is suspended. Select to see the changes.' });
  }
  list.push(
    { label: '$(check) Allow once', decision: 'allow-once', detail: why },
    { label: '$(history) Allow this tool for this session', decision: 'allow-tool-session' },
    { label: '$(pass-filled) Always allow this tool', decision: 'allow-tool-always', detail: 'Until the tool changes or you revoke it (MCP: Manage Approvals).' },
  );
  if (request.offerServerGrant) list.push({ label: `$(server) Allow every non-destructive tool of ${sanitizeLine(request.server)} for this session`, decision: 'allow-server-session' });
  list.push(
    { label: '$(edit) Edit arguments...', action: 'edit-arguments' },
    { label: '$(close) Deny', decision: 'deny', detail: 'Nothing is sent to the server.' },
    { label: 'arguments', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(json) Show full arguments', action: 'show-arguments', detail: argsText.length > 200 ? `${argsText.slice(0, 197)}… (${argsText.length} characters: select to see all)` : argsText },
  );
  return list;
}

async function pickDecision(request: ApprovalRequest): Promise<DecisionItem | undefined> {
  const argsText = JSON.stringify(request.args);
  const qp = vscode.window.createQuickPick<DecisionItem>();
  try {
    const tool = sanitizeLine(displayName(request.tool));
    qp.title = `Approve "${tool}" on ${sanitizeLine(request.server)}? [${badgeDescription(request.annotations)}]`;
    qp.placeholder = `Arguments: ${argsText.length > 300 ? `${argsText.slice(0, 297)}…` : argsText}`;
    qp.ignoreFocusOut = true;
    qp.matchOnDetail = true;
    qp.items = items(request, argsText);
    const first = qp.items.find((i) => i.decision === 'allow-once');
    if (first) qp.activeItems = [first];
    return await new Promise<DecisionItem | undefined>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
  } finally {
    qp.dispose();
  }
}

async function editArguments(args: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Edit the arguments (JSON)',
    value: JSON.stringify(args),
    ignoreFocusOut: true,
    validateInput: (t) => {
      try {
        const v: unknown = JSON.parse(t);
        return typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'Enter a JSON object.';
      } catch (err) {
        return `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      }
    },
  });
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}
