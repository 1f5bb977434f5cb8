import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/calls/ports';
import { badgeWords, displayName } from '../core/tools/annotations';
import { sanitizeLine } from '../core/render/sanitize';

interface DecisionItem extends vscode.QuickPickItem {
  readonly decision?: ApprovalDecision;
  readonly action?: 'show-arguments';
}

/**
 * The approval prompt: a quick-pick that stays open on focus loss, titled with server, tool and
 * badges, showing the exact arguments. Escape (or closing it any other way) denies.
 */
export class QuickPickApprover implements Approver {
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const argsText = JSON.stringify(request.args);
    for (;;) {
      const picked = await pickDecision(request, argsText);
      if (picked?.action === 'show-arguments') {
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(request.args, null, 2) });
        await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false });
        continue;
      }
      return picked?.decision ?? 'deny';
    }
  }
}

async function pickDecision(request: ApprovalRequest, argsText: string): Promise<DecisionItem | undefined> {
  const qp = vscode.window.createQuickPick<DecisionItem>();
  try {
    const tool = sanitizeLine(displayName(request.tool));
    qp.title = `Approve "${tool}" on ${sanitizeLine(request.server)}? [${badgeWords(request.annotations).join(', ')}]`;
    qp.placeholder = `Arguments: ${argsText}`;
    qp.ignoreFocusOut = true;
    qp.matchOnDetail = true;
    qp.items = [
      { label: '$(check) Allow once', decision: 'allow-once', detail: `This call ${request.reasons.join(' and ')}.` },
      { label: '$(close) Deny', decision: 'deny', detail: 'Nothing is sent to the server.' },
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(json) Show full arguments', action: 'show-arguments', detail: argsText.length > 120 ? `${argsText.slice(0, 117)}… (${argsText.length} characters)` : argsText },
    ];
    return await new Promise<DecisionItem | undefined>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
  } finally {
    qp.dispose();
  }
}
