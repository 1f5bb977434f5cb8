import * as vscode from 'vscode';
import type { CallPipeline } from '../../core/calls/callPipeline';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ArgumentRule, RuleProblem, RuleScope, RuleTest } from '../../core/policy/argumentRules';
import type { Grant } from '../../core/policy/grants';
import type { RuleSet } from '../../core/policy/ruleSource';
import { changedParts, pinTool } from '../../core/policy/toolPin';
import { sanitizeLine, shownName, visibleJson } from '../../core/render/sanitize';

// The Rules and Approvals view's rows (loaded with dist/forms.js when the view is first shown;
// rulesView.ts is the shim registered at activation). Rows read the RuleSet and the GrantStore;
// they never prompt or write.

/** What the view and its commands work with (built in activate()). */
export interface RulesViewDeps {
  readonly ruleSet: RuleSet;
  readonly pool: ServerPool;
  /** Its grants, and forecast() for What Would Happen. */
  readonly pipeline: CallPipeline;
  /** Where What Would Happen keeps the last arguments of each tool. */
  readonly workspaceState: vscode.Memento;
  readonly showReadOnly: (path: string, content: string) => Promise<void>;
}

export type RulesGroup = 'problems' | RuleScope | 'grants';

export type RulesNode =
  | { readonly kind: 'group'; readonly group: RulesGroup }
  | { readonly kind: 'rule'; readonly rule: ArgumentRule }
  | { readonly kind: 'problem'; readonly problem: RuleProblem }
  | { readonly kind: 'grant'; readonly grant: Grant };

const EFFECT_ICONS: Record<ArgumentRule['effect'], vscode.ThemeIcon> = {
  deny: new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground')),
  ask: new vscode.ThemeIcon('question', new vscode.ThemeColor('editorWarning.foreground')),
  allow: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
};

/** The rows of the view: problems first (when any), the three scopes of rules, then the grants. */
export class RulesTree {
  constructor(private readonly _deps: RulesViewDeps) {}

  getChildren(node?: RulesNode): RulesNode[] {
    const { ruleSet, pipeline } = this._deps;
    if (!node) {
      const groups: RulesGroup[] = ['policy', 'user', 'workspace', 'grants'];
      return (ruleSet.problems.length > 0 ? (['problems', ...groups] as const) : groups).map((group) => ({ kind: 'group', group }));
    }
    if (node.kind !== 'group') return [];
    if (node.group === 'problems') return ruleSet.problems.map((problem) => ({ kind: 'problem', problem }));
    if (node.group === 'grants') return pipeline.grants.all.map((grant) => ({ kind: 'grant', grant }));
    return ruleSet.rules.filter((r) => r.scope === node.group).map((rule) => ({ kind: 'rule', rule }));
  }

  getTreeItem(node: RulesNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group':
        return this._groupItem(node.group);
      case 'rule':
        return ruleItem(node.rule);
      case 'problem': {
        const item = new vscode.TreeItem(sanitizeLine(node.problem.rule));
        item.description = sanitizeLine(node.problem.detail);
        item.tooltip = sanitizeLine(node.problem.message);
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground'));
        item.contextValue = 'mcpRuleProblem;';
        return item;
      }
      case 'grant':
        return this._grantItem(node.grant);
    }
  }

  private _groupItem(group: RulesGroup): vscode.TreeItem {
    const count = this.getChildren({ kind: 'group', group }).length;
    const words: Record<RulesGroup, [string, string, string]> = {
      problems: [vscode.l10n.t('Problems'), vscode.l10n.t('in the rules as written'), 'warning'],
      policy: [vscode.l10n.t('Policy'), vscode.l10n.t('set by your administrator · read-only'), 'lock'],
      user: [vscode.l10n.t('User settings'), '', 'account'],
      workspace: [vscode.l10n.t('Workspace settings'), vscode.l10n.t('asks and denies only'), 'folder'],
      grants: [vscode.l10n.t('Grants'), vscode.l10n.t('from the approval prompt'), 'pass'],
    };
    const [label, about, icon] = words[group];
    const item = new vscode.TreeItem(label, count === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded);
    item.id = `group:${group}`;
    item.description = count === 0 ? [about, vscode.l10n.t('none')].filter(Boolean).join(' · ') : [about, String(count)].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(icon);
    item.contextValue = `mcpRulesGroup;${group};`;
    return item;
  }

  private _grantItem(grant: Grant): vscode.TreeItem {
    const scopeWords: Record<Grant['scope'], string> = {
      'tool-always': vscode.l10n.t('always'),
      'tool-session': vscode.l10n.t('this session'),
      'server-session': vscode.l10n.t('whole server, this session'),
    };
    const tool = grant.tool === undefined ? undefined : this._deps.pool.findTool(grant.server, grant.tool)?.tool;
    const changed = tool && grant.pin && pinTool(tool).hash !== grant.pin.hash ? changedParts(grant.pin.definition, pinTool(tool).definition) : undefined;
    const item = new vscode.TreeItem(grant.tool === undefined ? vscode.l10n.t('all non-destructive tools') : shownName(grant.tool));
    item.description = [shownName(grant.server), scopeWords[grant.scope], ...(changed ? [vscode.l10n.t('suspended: the tool changed')] : [])].join(' · ');
    const lines = [vscode.l10n.t('Given {0}', new Date(grant.createdAt).toLocaleString())];
    if (changed) lines.push(vscode.l10n.t('Suspended: the server changed this tool since ({0}); the next call asks and shows what changed.', changed.join(', ')));
    item.tooltip = lines.join('\n');
    item.iconPath = changed ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground')) : new vscode.ThemeIcon(grant.scope === 'tool-always' ? 'pass-filled' : 'pass');
    item.contextValue = 'mcpGrant;';
    return item;
  }
}

function ruleItem(rule: ArgumentRule): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(rule.name));
  const conditions = rule.when.length === 0 ? vscode.l10n.t('no conditions') : rule.when.length === 1 ? vscode.l10n.t('1 condition') : vscode.l10n.t('{0} conditions', rule.when.length);
  const parts = [`${sanitizeLine(rule.server)}/${sanitizeLine(rule.tool)}`, conditions];
  if (rule.broken !== undefined) parts.push(vscode.l10n.t('broken: asks'));
  // Folder settings share the Workspace group: say which folder.
  if (rule.scope === 'workspace' && rule.source !== 'workspace settings') parts.push(sanitizeLine(rule.source));
  item.description = parts.join(' · ');
  item.iconPath = rule.broken !== undefined ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground')) : EFFECT_ICONS[rule.effect];
  item.tooltip = ruleTooltip(rule);
  item.contextValue = `mcpRule;${rule.scope};`;
  return item;
}

function ruleTooltip(rule: ArgumentRule): vscode.MarkdownString {
  const effect = { deny: vscode.l10n.t('denies'), ask: vscode.l10n.t('asks'), allow: vscode.l10n.t('allows') }[rule.effect];
  const md = new vscode.MarkdownString();
  // Everything written by someone else goes in as text, never as markdown.
  const lines = [`${sanitizeLine(rule.name)}: ${effect}`, vscode.l10n.t('Source: {0}', sanitizeLine(rule.source))];
  if (rule.reason !== undefined) lines.push(vscode.l10n.t('Reason: {0}', sanitizeLine(rule.reason)));
  if (rule.broken !== undefined) lines.push(vscode.l10n.t('Problem: {0} Until it is fixed, it asks before every call of its tools.', sanitizeLine(rule.broken)));
  if (rule.scope === 'policy') lines.push(vscode.l10n.t('Your administrator set this rule: it cannot be edited or deleted here.'));
  for (const line of lines) md.appendText(line).appendMarkdown('\n\n');
  // A fence longer than any run of backticks in the JSON, so a name cannot close it early.
  const json = visibleJson(ruleJson(rule), 2);
  const fence = '`'.repeat(Math.max(3, ...(json.match(/`+/g) ?? []).map((run) => run.length + 1)));
  md.appendMarkdown(`${fence}json\n${json}\n${fence}\n`);
  return md;
}

/** The rule as JSON again (for any scope: a policy file's entries are not kept as written). */
export function ruleJson(rule: ArgumentRule): Record<string, unknown> {
  const when = rule.when.map((c) => ({ pointer: c.pointerText, ...testJson(c.test) }));
  return { name: rule.name, server: rule.server, tool: rule.tool, ...(when.length > 0 && { when }), effect: rule.effect, ...(rule.reason !== undefined && { reason: rule.reason }) };
}

function testJson(test: RuleTest): Record<string, unknown> {
  switch (test.kind) {
    case 'equals':
      return { equals: test.value };
    case 'in':
      return { in: test.values };
    case 'prefix':
      return { prefix: test.prefix };
    case 'under':
      return { under: test.folder };
    case 'glob':
      return { glob: test.glob };
    case 'regex':
      return { regex: test.regex.source };
    case 'range':
      return { ...(test.min !== undefined && { min: test.min }), ...(test.max !== undefined && { max: test.max }) };
  }
}
