import * as vscode from 'vscode';
import type { CallForecast } from '../../core/calls/approvalStep';
import type { SchemaProblem } from '../../core/tools/schemaProblems';
import { problemText } from '../../core/tools/schemaProblems';
import { sanitizeLine, shownArguments, shownName, visibleJson } from '../../core/render/sanitize';
import { pickTool } from '../calls/pickTool';
import type { RulesViewDeps } from './rulesTree';

// What Would Happen...: what a call of a tool with these arguments would meet at the approve
// stage (rules, grants, annotations) and why, without calling it (loaded with dist/forms.js).

/** A tool row of the Tools view, a target with arguments (tests, links), or nothing (palette: it asks). */
export type WhatIfTarget = { readonly server: string; readonly tool: string; readonly args?: Record<string, unknown> } | undefined;

export type WhatIfAnswer = CallForecast | { readonly kind: 'unknown'; readonly sentence: string };

const LAST_ARGS = (server: string, tool: string) => `whatIfArgs:${server}/${tool}`;

export async function whatWouldHappen(deps: RulesViewDeps, target?: WhatIfTarget): Promise<WhatIfAnswer | undefined> {
  const picked = target?.tool !== undefined ? target : await pickTool(deps.pool, vscode.l10n.t('MCP Tool Host: What Would Happen'), vscode.l10n.t('Pick a tool to see what a call of it would meet'), deps.pipeline.rules);
  if (!picked) return undefined;
  const found = deps.pool.findTool(picked.server, picked.tool);
  if (!found) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Server "{0}" has no running tool named "{1}": start the server to see what would happen.', shownName(picked.server), sanitizeLine(picked.tool)));
    return undefined;
  }
  const args = target?.args ?? (await askArguments(deps, picked.server, picked.tool));
  if (!args) return undefined;
  const answer = deps.pipeline.forecast({ server: picked.server, tool: picked.tool, args });
  const problems = deps.pipeline.validateArguments(found.tool, args).problems;
  const name = sanitizeLine(picked.tool).replace(/[\\/]/g, '_');
  // Markdown, which the editor wraps: the sentences are long.
  await deps.showReadOnly(`/${vscode.l10n.t('what would happen - {0}', name)}.md`, answerText(picked.server, picked.tool, args, answer, problems));
  return answer;
}

/** The arguments as JSON, prefilled with the last ones asked here for this tool, else `{}`. */
async function askArguments(deps: RulesViewDeps, server: string, tool: string): Promise<Record<string, unknown> | undefined> {
  const key = LAST_ARGS(server, tool);
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('What would happen if {0} / {1} were called with these arguments?', shownName(server), shownName(tool)),
    prompt: vscode.l10n.t('The arguments as a JSON object. Nothing is called.'),
    value: visibleJson(deps.workspaceState.get<Record<string, unknown>>(key) ?? {}),
    validateInput: (t) => argumentsProblem(t),
    ignoreFocusOut: true,
  });
  if (text === undefined || argumentsProblem(text) !== undefined) return undefined;
  const args = JSON.parse(text) as Record<string, unknown>;
  await deps.workspaceState.update(key, args);
  return args;
}

export function argumentsProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return vscode.l10n.t('Not valid JSON: {0}', (err as Error).message);
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : vscode.l10n.t('The arguments are a JSON object, such as {"path": "/tmp/notes.txt"}.');
}

/** The answer as the read-only document shows it: the decision, the sentence, and for an ask its reasons. */
export function answerText(server: string, tool: string, args: Record<string, unknown>, answer: WhatIfAnswer, problems: readonly SchemaProblem[]): string {
  const lines = [`# ${vscode.l10n.t('What would happen if {0} / {1} were called with these arguments', shownName(server), shownName(tool))}`, '', vscode.l10n.t('Arguments: {0}', shownArguments(args)), ''];
  switch (answer.kind) {
    case 'runs':
      lines.push(vscode.l10n.t('It runs without asking.'));
      break;
    case 'denied':
      lines.push(vscode.l10n.t('It is denied: nothing is sent, and no one is asked.'));
      break;
    case 'asks':
      lines.push(vscode.l10n.t('It asks you first. The approval prompt gives these reasons:'), ...answer.reasons.map((r) => `- ${sanitizeLine(r)}`));
      if (answer.changed) lines.push(vscode.l10n.t('The tool changed since it was allowed ({0}): the prompt shows what changed.', answer.changed.parts.map(sanitizeLine).join(', ')));
      if (!answer.offerGrants) lines.push(vscode.l10n.t('No "always allow" is offered: a grant would not outweigh this.'));
      break;
    case 'unknown':
      break;
  }
  lines.push('', vscode.l10n.t('Why: {0}', sanitizeLine(answer.sentence)));
  if (problems.length > 0) {
    lines.push('', vscode.l10n.t('But first, these arguments do not fit the tool\'s schema, so the call would stop before any approval:'), ...problems.map((p) => `- ${sanitizeLine(problemText(p))}`));
  }
  lines.push('', vscode.l10n.t('Nothing was called: this is what the rules, grants and tool annotations in force now decide. A real call is judged again when it is made.'));
  return `${lines.join('\n')}\n`;
}
