import type { RuleCondition } from './argumentRules';
import { valueAt } from './jsonPointer';
import { segmentsMatch } from './ruleGlobs';
import { isUnder, keyOf, readPath, ruleFolder, segmentsBelow, type PathPlace, type PathReading, type PathSystem } from './rulePaths';
import { canonicalJson } from './toolPin';

/** Where a call's paths are read: the machine, the workspace folder and the server's folder. */
export interface MatchPlace extends PathPlace {
  readonly paths: PathSystem;
}

/**
 * A condition's answer. `unsure` is a value the test cannot read (a number as text, a path with a
 * NUL, a path that reaches two places): an allow does not hold on it, a deny or ask does.
 * A missing value is `no` for every test: the rule speaks of what a call sends.
 */
export type ConditionResult = { readonly kind: 'yes' } | { readonly kind: 'no' } | { readonly kind: 'unsure'; readonly why: string };

const YES: ConditionResult = { kind: 'yes' };
const NO: ConditionResult = { kind: 'no' };

/**
 * Path readings and rule folders looked up once per decision: many rules name the same argument,
 * and each reading costs an lstat per segment.
 */
export class PathMemo {
  private readonly _paths = new Map<string, PathReading>();
  private readonly _folders = new Map<string, string | undefined | Error>();

  constructor(readonly place: MatchPlace) {}

  path(value: string): PathReading {
    let reading = this._paths.get(value);
    if (!reading) this._paths.set(value, (reading = readPath(value, this.place.paths, this.place)));
    return reading;
  }

  /** The rule's folder as a real path; `undefined` without the workspace it names. Throws what resolving threw. */
  folder(text: string): string | undefined {
    if (!this._folders.has(text)) {
      try {
        this._folders.set(text, ruleFolder(text, this.place.paths, this.place));
      } catch (err) {
        this._folders.set(text, err as Error);
      }
    }
    const folder = this._folders.get(text);
    if (folder instanceof Error) throw folder;
    return folder;
  }
}

/** Cheap tests first, so a rule whose `equals` fails never reads the file system. */
export function costOf(condition: RuleCondition): number {
  const kind = condition.test.kind;
  return kind === 'under' || kind === 'glob' ? 2 : kind === 'regex' ? 1 : 0;
}

export function testCondition(condition: RuleCondition, args: Record<string, unknown>, place: MatchPlace | PathMemo): ConditionResult {
  const memo = place instanceof PathMemo ? place : new PathMemo(place);
  const value = valueAt(args, condition.pointer);
  if (value === undefined) return NO;
  const test = condition.test;
  switch (test.kind) {
    case 'equals':
      return answer(canonicalJson(value) === canonicalJson(test.value));
    case 'in': {
      const text = canonicalJson(value);
      return answer(test.values.some((v) => canonicalJson(v) === text));
    }
    default:
      // A list (read_multiple_files' "paths"): the test holds for every value, for none, or it cannot tell.
      return Array.isArray(value) ? testEach(value, (v) => testValue(test, v, memo)) : testValue(test, value, memo);
  }
}

/** A list is read value by value; past this many it is not read (a restricting rule applies). */
const MAX_LIST_VALUES = 256;

function testEach(values: readonly unknown[], test: (value: unknown) => ConditionResult): ConditionResult {
  if (values.length === 0) return NO;
  if (values.length > MAX_LIST_VALUES) return { kind: 'unsure', why: `is a list of ${values.length} values, more than the ${MAX_LIST_VALUES} a rule reads` };
  const results = values.map(test);
  const unsure = results.findIndex((r) => r.kind === 'unsure');
  if (unsure >= 0) return { kind: 'unsure', why: `value ${unsure} ${(results[unsure] as { why: string }).why}` };
  if (results.every((r) => r.kind === 'yes')) return YES;
  if (results.every((r) => r.kind === 'no')) return NO;
  // Some pass and some do not: an allow must not hold for the list, a deny or ask must.
  return { kind: 'unsure', why: `is a list of which ${results.filter((r) => r.kind === 'yes').length} of ${values.length} values pass` };
}

function testValue(test: Exclude<RuleCondition['test'], { kind: 'equals' | 'in' }>, value: unknown, memo: PathMemo): ConditionResult {
  switch (test.kind) {
    case 'prefix':
      return typeof value === 'string' ? answer(value.startsWith(test.prefix)) : notText(value);
    case 'regex': {
      if (typeof value !== 'string') return notText(value);
      const found = test.regex.test(value);
      return found === undefined ? { kind: 'unsure', why: `is too long (${value.length} characters) to check against the regex` } : answer(found);
    }
    case 'range':
      if (typeof value !== 'number') return { kind: 'unsure', why: `is not a number (${Array.isArray(value) ? 'a list' : typeof value})` };
      return answer((test.min === undefined || value >= test.min) && (test.max === undefined || value <= test.max));
    case 'under':
    case 'glob':
      return typeof value === 'string' ? testPath(value, test.kind === 'under' ? test.folder : test.glob, test.kind === 'glob', memo) : notText(value);
  }
}

function testPath(value: string, written: string, glob: boolean, memo: PathMemo): ConditionResult {
  const sys = memo.place.paths;
  const reading = memo.path(value);
  if (reading.kind === 'unreadable') return { kind: 'unsure', why: reading.why };
  // A glob is a folder (the segments before the first wildcard) and a pattern for the segments below it.
  const segments = glob ? written.split(/[\\/]/) : [written];
  const firstWild = glob ? segments.findIndex((s) => s.includes('*') || s.includes('?')) : -1;
  const leading = segments.slice(0, firstWild).join('/');
  // "/*", "~/*", "C:\\*": the base is a root or a home, written without its last separator.
  const baseText = firstWild < 0 ? written : /[\\/]/.test(leading) ? leading : `${leading}/`;
  const patterns = firstWild < 0 ? [] : segments.slice(firstWild).filter((s) => s !== '').map((s) => keyOf(s, sys));
  let folder: string | undefined;
  try {
    folder = memo.folder(baseText);
  } catch (err) {
    return { kind: 'unsure', why: `is compared with the rule's folder ${JSON.stringify(baseText)}, which could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  if (folder === undefined) return { kind: 'unsure', why: `is compared with ${JSON.stringify(baseText)}, and no workspace folder is open` };
  const base = folder;
  const hits = reading.paths.map((p) => isUnder(p, base, sys) && (!glob || segmentsMatch(patterns, segmentsBelow(p, base, sys))));
  if (hits.every((h) => h)) return YES;
  if (hits.every((h) => !h)) return NO;
  return { kind: 'unsure', why: `reaches ${reading.paths.map((p) => JSON.stringify(p)).join(' or ')} depending on how ".." is read (a symbolic link is on the way)` };
}

function answer(yes: boolean): ConditionResult {
  return yes ? YES : NO;
}

function notText(value: unknown): ConditionResult {
  return { kind: 'unsure', why: `is not text (${Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value})` };
}
