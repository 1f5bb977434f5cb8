import type { RuleCondition } from './argumentRules';
import { reach } from './jsonPointer';
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
 * `some` is a list of which some values match and some do not: a deny or ask holds (any value
 * is enough), an allow does not (every value must); `match` and `miss` say which value.
 * A missing value is `no` for every test: the rule speaks of what a call sends.
 */
export type ConditionResult =
  | { readonly kind: 'yes' }
  | { readonly kind: 'no' }
  | { readonly kind: 'unsure'; readonly why: string }
  | { readonly kind: 'some'; readonly match: string; readonly miss: string };

const YES: ConditionResult = { kind: 'yes' };
const NO: ConditionResult = { kind: 'no' };

/**
 * Path readings and rule folders looked up once per decision: many rules name the same argument,
 * and each reading costs an lstat per segment.
 */
export class PathMemo {
  private readonly _paths = new Map<string, PathReading>();
  private readonly _folders = new Map<string, string | undefined | Error>();

  private _place: MatchPlace | (() => MatchPlace);

  /** `place` may be given as a function: called at the first path read, so a decision that reads none never works it out (it may stat the launch's folders). */
  constructor(place: MatchPlace | (() => MatchPlace)) {
    this._place = place;
  }

  get place(): MatchPlace {
    if (typeof this._place === 'function') this._place = this._place();
    return this._place;
  }

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

/**
 * Every test reads a list value by value (`testEach`); any other value is tested as it is.
 * `equals` and `in` compare JSON values canonically (an object is one value); the other tests
 * read text, a number or a path, and are unsure of any other kind of value.
 */
export function testCondition(condition: RuleCondition, args: Record<string, unknown>, place: MatchPlace | PathMemo): ConditionResult {
  const memo = place instanceof PathMemo ? place : new PathMemo(place);
  const reached = reach(args, condition.pointer);
  // `/files/-/path`: every item's value, as a list (an item without one does not match).
  if (reached.each) return testEach(reached.values, (v) => (v === undefined ? NO : testValue(condition.test, v, memo)));
  const value = reached.value;
  if (value === undefined) return NO;
  return Array.isArray(value) ? testEach(value, (v) => testValue(condition.test, v, memo)) : testValue(condition.test, value, memo);
}

/** A list is read value by value; past this many it is not read (a restricting rule applies). */
const MAX_LIST_VALUES = 256;

/**
 * A list (read_multiple_files' "paths", a list of branches): `yes` when every value matches, `no`
 * when none does and each was read, `some` when some match. Not read (`unsure`): an empty list
 * (a server may take it for "all"), a list inside the list, a value the test cannot read when
 * none matches, or more than 256 values.
 */
function testEach(values: readonly unknown[], test: (value: unknown) => ConditionResult): ConditionResult {
  if (values.length === 0) return { kind: 'unsure', why: 'is an empty list, which some servers read as "all": a rule does not read it' };
  if (values.length > MAX_LIST_VALUES) return { kind: 'unsure', why: `is a list of ${values.length} values, more than the ${MAX_LIST_VALUES} a rule reads` };
  const results = values.map((v): ConditionResult => (Array.isArray(v) ? { kind: 'unsure', why: 'is a list inside the list, which a rule does not read' } : test(v)));
  const yes = results.findIndex((r) => r.kind === 'yes');
  const other = results.findIndex((r) => r.kind !== 'yes');
  if (other < 0) return YES;
  const missed = results[other];
  const miss = `is a list, and its value ${other} ${missed.kind === 'unsure' ? missed.why : `(${shown(values[other])}) does not match`}`;
  if (yes >= 0) return { kind: 'some', match: `is a list, and its value ${yes} (${shown(values[yes])}) matches`, miss };
  const unsure = results.findIndex((r) => r.kind === 'unsure');
  return unsure < 0 ? NO : { kind: 'unsure', why: `is a list, and its value ${unsure} ${(results[unsure] as { why: string }).why}` };
}

function testValue(test: RuleCondition['test'], value: unknown, memo: PathMemo): ConditionResult {
  switch (test.kind) {
    case 'equals':
      return answer(canonicalJson(value) === canonicalJson(test.value));
    case 'in': {
      const text = canonicalJson(value);
      return answer(test.values.some((v) => canonicalJson(v) === text));
    }
    case 'prefix':
      return typeof value === 'string' ? answer(value.startsWith(test.prefix)) : notText(value);
    case 'regex': {
      if (typeof value !== 'string') return notText(value);
      const found = test.regex.test(value);
      return found === undefined ? { kind: 'unsure', why: `is too long (${value.length} characters) to check against the regex` } : answer(found);
    }
    case 'range':
      if (typeof value !== 'number') return { kind: 'unsure', why: `is not a number (${kindOf(value)})` };
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
  const reached = reading.paths.map((p) => JSON.stringify(p)).join(' or ');
  if (reading.bases) return { kind: 'unsure', why: `is a relative path, which reaches ${reached} depending on the folder the server reads it from (its own, ${JSON.stringify(reading.bases[0])}, or one it was given: ${reading.bases.slice(1).map((b) => JSON.stringify(b)).join(', ')}); an absolute path can be judged` };
  return { kind: 'unsure', why: `reaches ${reached} depending on how ".." is read (a symbolic link is on the way)` };
}

function answer(yes: boolean): ConditionResult {
  return yes ? YES : NO;
}

function notText(value: unknown): ConditionResult {
  return { kind: 'unsure', why: `is not text (${kindOf(value)})` };
}

function kindOf(value: unknown): string {
  return Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value;
}

/** A value of a call quoted for a sentence, cut at 60 characters. */
function shown(value: unknown): string {
  const text = canonicalJson(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
