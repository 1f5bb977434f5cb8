import type { Tool } from '@modelcontextprotocol/client';
import { parseRules } from './argumentRules';
import { pointerText, valueAt } from './jsonPointer';
import { PathMemo, testCondition, type MatchPlace } from './ruleConditions';
import { hasWildcard } from './ruleGlobs';
import { isUnder, keyOf, type PathSystem } from './rulePaths';
import { canonicalJson } from './toolPin';

/** A condition as the user's setting holds it: `{ "pointer": "/path", "under": "${workspaceFolder}/src" }`. */
export type RawCondition = Readonly<Record<string, unknown>> & { readonly pointer: string };

/** An allow rule as the user's setting holds it (the JSON the user edits before saving). */
export interface RawRule {
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly effect: 'allow';
  readonly when: readonly RawCondition[];
}

/**
 * One way to constrain one argument: under the folder of its real path, exactly this value, each
 * value one of this list's (a list is read value by value), at most or at least this number, or
 * any value (no condition). Each choice with a condition was checked with the engine: it parses,
 * and it holds for the call it was proposed from.
 */
export type ArgumentChoice =
  | { readonly kind: 'under'; readonly folder: string; readonly condition: RawCondition }
  | { readonly kind: 'equals' | 'each-of' | 'at-most' | 'at-least'; readonly condition: RawCondition }
  | { readonly kind: 'any' };

export interface ArgumentProposal {
  /** The argument's name as the call sends it (the server chose it: sanitise before showing). */
  readonly name: string;
  readonly value: unknown;
  /** Tightest first; "any value" last. */
  readonly choices: readonly ArgumentChoice[];
  /** Why a choice one might expect is missing ("no folder: it is a relative path and ..."), for the picker. */
  readonly notes: readonly string[];
}

export type RuleProposal =
  | {
      readonly kind: 'proposal';
      readonly server: string;
      readonly tool: string;
      /** "<tool> like this", with " (2)" and on when the name is taken. */
      readonly name: string;
      readonly arguments: readonly ArgumentProposal[];
      /** Parameters of the tool this call did not send: a rule cannot say "absent", so it does not check them. */
      readonly unchecked: readonly string[];
    }
  | { readonly kind: 'none'; readonly why: string };

/** A rule holds at most this many conditions (argumentRules.ts): a call with more arguments gets no proposal. */
const MAX_ARGUMENTS = 32;
/** "Exactly this value" is offered up to this size (canonical JSON): a rule is read and edited by a person. */
export const MAX_EQUALS_CHARS = 1000;
/** Argument names past this length are not written into a rule (only "any value" is offered). */
const MAX_ARGUMENT_NAME = 200;
const MAX_RULE_NAME = 100;
const MAX_UNCHECKED = 20;
/** Argument names that say "this is a path" (split at case changes and punctuation: filePath, source_dir). */
const PATH_WORDS = new Set(['path', 'paths', 'file', 'files', 'filename', 'filepath', 'dir', 'dirs', 'directory', 'folder', 'cwd', 'dest', 'destination', 'source', 'src', 'target']);

/**
 * Proposes an allow rule for calls like this one: per top-level argument the choices a user picks
 * from. A path-looking text offers the folder of its real path (written under
 * `${workspaceFolder}` when inside it); a path the engine cannot read, or that reaches two places,
 * offers no folder (the note says why), only its exact value. Every offered condition is checked
 * with the engine against this very call, so the rule can never cover less than this call or read
 * a value the engine could not. `taken`: names already used in the user's rules.
 */
export function proposeRule(server: string, tool: Pick<Tool, 'name' | 'inputSchema'>, args: Record<string, unknown>, place: MatchPlace, taken: readonly string[] = []): RuleProposal {
  // Server and tool as a rule names them: a `*` or `?` in either would be read as a wildcard (there is no escape).
  for (const [field, name] of [['server', server], ['tool', tool.name]] as const) {
    if (hasWildcard(name)) return { kind: 'none', why: `The ${field} name ${shown(name)} contains * or ?, which a rule reads as a wildcard: a rule for it would cover other ${field}s too.` };
  }
  const skeleton = parseRules([{ name: 'proposal', server, tool: tool.name, effect: 'allow' }], 'user');
  if (skeleton.problems.length > 0) return { kind: 'none', why: `A rule cannot name this ${skeleton.problems[0].field}: ${skeleton.problems[0].detail}` };
  const keys = Object.keys(args);
  if (keys.length > MAX_ARGUMENTS) return { kind: 'none', why: `This call has ${keys.length} arguments; a rule tests at most ${MAX_ARGUMENTS}.` };
  const memo = new PathMemo(place);
  return {
    kind: 'proposal',
    server,
    tool: tool.name,
    name: ruleName(tool.name, taken),
    arguments: keys.map((key) => proposeArgument(key, args, memo)),
    unchecked: uncheckedOf(tool.inputSchema, keys),
  };
}

/**
 * The rule for the choices made (one per argument, each one of that argument's choices, in order).
 * Throws on a choice the proposal did not offer: a rule is built only from checked conditions.
 */
export function buildRule(proposal: Extract<RuleProposal, { kind: 'proposal' }>, chosen: readonly ArgumentChoice[]): RawRule {
  if (chosen.length !== proposal.arguments.length) throw new Error(`One choice per argument: ${proposal.arguments.length} arguments, ${chosen.length} choices.`);
  chosen.forEach((c, i) => {
    if (!proposal.arguments[i].choices.includes(c)) throw new Error(`Choice ${i + 1} was not offered for argument ${shown(proposal.arguments[i].name)}.`);
  });
  const when = chosen.flatMap((c) => (c.kind === 'any' ? [] : [c.condition]));
  return { name: proposal.name, server: proposal.server, tool: proposal.tool, effect: 'allow', when };
}

/** "<tool> like this", cut to fit a rule's name, with " (2)", " (3)"... when taken. */
export function ruleName(tool: string, taken: readonly string[]): string {
  // Room for " like this" and " (nnnn)" within 100 UTF-16 units; cut at code points so no surrogate is split.
  let stem = tool;
  if (tool.length > 80) {
    stem = '';
    for (const point of tool) {
      if (stem.length + point.length > 79) break;
      stem += point;
    }
    stem += '…';
  }
  const base = `${stem} like this`;
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base} (${n})`;
    if (!used.has(name) && name.length <= MAX_RULE_NAME) return name;
  }
}

function proposeArgument(key: string, args: Record<string, unknown>, memo: PathMemo): ArgumentProposal {
  const value = valueAt(args, [key]);
  const any: ArgumentChoice = { kind: 'any' };
  if (key.length > MAX_ARGUMENT_NAME) return { name: key, value, choices: [any], notes: [`its name is longer than ${MAX_ARGUMENT_NAME} characters, too long to write into a rule`] };
  const pointer = pointerText([key]);
  const notes: string[] = [];
  const choices: ArgumentChoice[] = [];
  // Keeps a condition only when it parses and holds for this call: never one the engine cannot read.
  const offer = (kind: 'under' | 'equals' | 'each-of' | 'at-most' | 'at-least', test: Record<string, unknown>, folder?: string) => {
    const condition: RawCondition = { pointer, ...test };
    const why = checkCondition(condition, args, memo);
    if (why !== undefined) return void notes.push(why);
    choices.push(kind === 'under' ? { kind, folder: folder!, condition } : { kind, condition });
  };
  const sys = memo.place.paths;
  if (typeof value === 'string' && looksLikePath(key, value, sys)) {
    const folder = folderOf(value, memo);
    if ('why' in folder) notes.push(`no folder: the path ${folder.why}`);
    else offer('under', { under: folder.written }, folder.written);
  }
  const text = canonicalJson(value);
  if (text.length > MAX_EQUALS_CHARS) notes.push(`no exact value: it is ${text.length} characters long (at most ${MAX_EQUALS_CHARS} in a rule)`);
  // A list is read value by value: "in" its values holds when every value sent is one of them.
  else if (Array.isArray(value)) {
    if (value.length === 0) notes.push('no list of values: a rule does not read an empty list (a server may take it for "all")');
    else if (value.some((v) => Array.isArray(v))) notes.push('no list of values: a rule does not read a list inside a list');
    else offer('each-of', { in: value });
  }
  else offer('equals', { equals: value });
  if (typeof value === 'number' && Number.isFinite(value)) {
    offer('at-most', { max: value });
    offer('at-least', { min: value });
  }
  choices.push(any);
  return { name: key, value, choices, notes };
}

/** Why a proposed condition cannot be offered, or `undefined` when it parses and holds for this call. */
function checkCondition(condition: RawCondition, args: Record<string, unknown>, memo: PathMemo): string | undefined {
  const parsed = parseRules([{ name: 'proposal', server: '*', tool: '*', effect: 'allow', when: [condition] }], 'user');
  if (parsed.problems.length > 0 || parsed.rules.length !== 1) return `a rule cannot say this: ${parsed.problems[0]?.detail ?? 'it does not parse'}`;
  const result = testCondition(parsed.rules[0].when[0], args, memo);
  if (result.kind === 'yes') return undefined;
  return result.kind === 'unsure' ? `the rule engine cannot read it: it ${result.why}` : 'the condition would not hold for this call';
}

/**
 * The folder of the value's real path, as a rule writes it, or why there is none. The folder is
 * that of the real path (symlinks followed, `..` applied), so a path that leaves the project
 * proposes the folder it really reaches.
 */
function folderOf(value: string, memo: PathMemo): { readonly written: string } | { readonly why: string } {
  const sys = memo.place.paths;
  const reading = memo.path(value);
  if (reading.kind === 'unreadable') return { why: reading.why };
  if (reading.paths.length > 1) return { why: `reaches ${reading.paths.map((p) => shown(p)).join(' or ')} depending on how ".." is read (a symbolic link is on the way)` };
  const folder = sys.path.dirname(reading.paths[0]);
  if (folder === sys.path.parse(folder).root) return { why: `is in the root folder ${shown(folder)}, and a rule for everything under it would cover every path` };
  if (hasWildcard(folder)) return { why: `is in a folder whose name has * or ? (${shown(folder)}), which a rule's folder cannot hold` };
  const inWorkspace = workspaceForm(folder, memo);
  // Written back, the folder must name the same real folder, or the rule would cover another place.
  for (const written of inWorkspace === undefined ? [folder] : [inWorkspace, folder]) {
    if (sameFolder(written, folder, memo)) return { written };
  }
  return { why: `is in ${shown(folder)}, which does not resolve to itself (the file system changed?)` };
}

/** `${workspaceFolder}/a/b` for a folder inside the workspace's real folder. */
function workspaceForm(folder: string, memo: PathMemo): string | undefined {
  if (memo.place.workspaceFolder === undefined) return undefined;
  const sys = memo.place.paths;
  let workspace: string | undefined;
  try {
    workspace = memo.folder('${workspaceFolder}');
  } catch {
    return undefined;
  }
  if (workspace === undefined || !isUnder(folder, workspace, sys)) return undefined;
  const below = folder.slice(workspace.length).replace(/^[\\/]+/, '');
  return below === '' ? '${workspaceFolder}' : `\${workspaceFolder}${sys.path.sep}${below}`;
}

function sameFolder(written: string, folder: string, memo: PathMemo): boolean {
  try {
    const resolved = memo.folder(written);
    return resolved !== undefined && keyOf(resolved, memo.place.paths) === keyOf(folder, memo.place.paths);
  } catch {
    return false;
  }
}

/**
 * Does a text look like a path? An absolute form (`/`, a drive, `\\`, `~/`, `file:`), `./` or `../`,
 * or any text in an argument whose name says path (`path`, `filePath`, `source_dir`). A URL of
 * another scheme is not a path.
 */
export function looksLikePath(name: string, value: string, sys: PathSystem): boolean {
  // Multi-line text is content, not a path; other odd characters (NUL) are for readPath to refuse, saying why.
  if (value === '' || /[\r\n]/.test(value)) return false;
  if (/^file:/i.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  if (/^(~|\.{1,2})([\\/]|$)/.test(value) || sys.path.isAbsolute(value)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => PATH_WORDS.has(w));
}

/** The tool's parameters this call did not send (own properties of `inputSchema.properties`), at most 20. */
function uncheckedOf(schema: unknown, sent: readonly string[]): string[] {
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  const have = new Set(sent);
  return Object.keys(properties)
    .filter((k) => !have.has(k))
    .slice(0, MAX_UNCHECKED);
}

/** A value quoted for a sentence, cut at 80 characters. */
function shown(value: string): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
