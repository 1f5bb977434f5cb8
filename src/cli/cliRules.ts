import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { loadJsonc } from '../core/packages/load';
import { loadRules } from '../core/policy/load';
import { sanitizeLine } from '../core/render/sanitize';
import { policyFiles } from '../core/policy/policyFiles';
import { policyInputs, readRulesFile, RuleSet, type RuleInput } from '../core/policy/ruleSource';
import { CliError, Exit } from './args';

/** The rules a CLI run decides calls by, and what is wrong with the ones it was not told to read. */
export interface CliRules {
  readonly set: RuleSet;
  /** Problems of the policy files and the workspace's settings: warnings, the engine already restricts for them. */
  readonly warnings: readonly string[];
}

/** The settings key the extension reads rules from (a workspace's `.vscode/settings.json` here). */
const SETTINGS_KEY = 'mcpToolHost.rules';

/**
 * Every place a CLI run reads rules from, the same the extension reads: the policy files (scope
 * `policy`; none when missing), each --rules FILE (scope `user`, in order), and `mcpToolHost.rules`
 * of `<workspace>/.vscode/settings.json` (scope `workspace`: asks and denies only). A file the user
 * named that cannot be read or holds a bad rule is a CliError (exit 2) naming the file, the rule
 * and the field: running without the rules the user asked for could run what they meant to stop.
 */
export function readCliRules(files: readonly string[], workspace: string | undefined, env: NodeJS.ProcessEnv = process.env): CliRules {
  const named = files.map((file) => readRulesFile(path.resolve(file), 'user', `rules file ${path.basename(file)}`, false));
  const errors: string[] = [];
  for (const input of named) {
    if (input.problem !== undefined) errors.push(input.problem);
    else errors.push(...loadRules().parseRules(input.raw, input.scope, input.source).problems.map((p) => p.message));
  }
  if (errors.length > 0) throw new CliError(`Rules not read, nothing was started or sent:\n${errors.map((e) => `  ${sanitizeLine(e)}`).join('\n')}`, Exit.usage);
  const inputs: RuleInput[] = [...policyInputs(policyFiles(env)), ...named, ...(workspace === undefined ? [] : [workspaceInput(workspace)])];
  const set = new RuleSet(() => inputs);
  // The named files parsed cleanly above, so what is left is the policy's and the workspace's
  // (nothing is parsed, and the engine not loaded, when no place has rules).
  return { set, warnings: set.problems.map((p) => sanitizeLine(p.message)) };
}

/** `mcpToolHost.rules` of a workspace's `.vscode/settings.json` (JSONC), as VS Code would read it. */
export function workspaceInput(workspace: string): RuleInput {
  const file = path.join(workspace, '.vscode', 'settings.json');
  const source = 'workspace settings';
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { scope: 'workspace', source, raw: undefined };
    return { scope: 'workspace', source, raw: undefined, problem: `${file} could not be read (${code ?? (err as Error).message}).` };
  }
  const errors: ParseError[] = [];
  const doc = loadJsonc().parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0 || typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    // Only a workspace that writes rules restricts its calls when its settings cannot be read.
    if (!text.includes(SETTINGS_KEY)) return { scope: 'workspace', source, raw: undefined };
    return { scope: 'workspace', source, raw: undefined, problem: `${file} is not valid JSON with comments, so its "${SETTINGS_KEY}" cannot be read.` };
  }
  return { scope: 'workspace', source, raw: (doc as Record<string, unknown>)[SETTINGS_KEY] };
}
