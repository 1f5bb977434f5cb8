/** What `plainMessage` reads of one ajv error (`ErrorObject` has these and more). */
export interface ValidatorError {
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** ajv's own words: the fallback for a keyword we have no sentence for. */
  readonly message?: string;
}

/** A value quoted from a schema (an enum value, a pattern) is cut to this: a server can send huge ones. */
export const MAX_QUOTED_CHARS = 60;
const MAX_ENUM_SHOWN = 10;
const MAX_FALLBACK_CHARS = 200;

/** How each JSON type reads in "must be …". */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** What a value of each common format looks like; other formats read "must be a valid <format>". */
const FORMAT_WORDS: Readonly<Record<string, string>> = {
  uri: 'a URL (uri)',
  url: 'a URL (url)',
  'uri-reference': 'a URL or a relative reference (uri-reference)',
  email: 'a valid email address',
  date: 'a date like 2024-01-31',
  'date-time': 'a date and time like 2024-01-31T09:30:00Z',
  time: 'a time like 09:30:00Z',
  duration: 'a duration like P3D or PT1H30M',
  uuid: 'a UUID like 123e4567-e89b-12d3-a456-426614174000',
  ipv4: 'an IPv4 address like 192.168.0.1',
  ipv6: 'an IPv6 address like 2001:db8::1',
  hostname: 'a host name like example.com',
  regex: 'a valid regular expression',
};

/**
 * One validation error as a plain sentence that follows the name of the value it is about
 * (`count` + `must be at most 10`). Every surface shows these, so this is the one place the
 * wording lives. Anything quoted from the schema comes from a server: one line, and short.
 */
export function plainMessage(error: ValidatorError): string {
  const p = error.params;
  const limit = p.limit;
  switch (error.keyword) {
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'format':
      return `must be ${formatWords(p.format)}`;
    case 'minLength':
      return `must have at least ${count(limit, 'character', 'characters')}`;
    case 'maxLength':
      return `must have at most ${count(limit, 'character', 'characters')}`;
    case 'minItems':
      return `must have at least ${count(limit, 'item', 'items')}`;
    case 'maxItems':
    case 'items': // 2020-12 `items: false` after `prefixItems`
    case 'additionalItems':
    case 'unevaluatedItems':
      return `must have at most ${count(limit, 'item', 'items')}`;
    case 'minProperties':
      return `must have at least ${count(limit, 'property', 'properties')}`;
    case 'maxProperties':
      return `must have at most ${count(limit, 'property', 'properties')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'formatMinimum':
    case 'formatMaximum':
    case 'formatExclusiveMinimum':
    case 'formatExclusiveMaximum':
      return comparison(p.comparison, limit) ?? fallback(error);
    case 'multipleOf':
      return `must be a multiple of ${shown(p.multipleOf)}`;
    case 'enum':
      return oneOfValues(p.allowedValues);
    case 'const':
      return `must be ${quoted(p.allowedValue)}`;
    case 'pattern':
      return `must match the pattern ${shown(p.pattern)}`;
    case 'uniqueItems':
      return typeof p.i === 'number' && typeof p.j === 'number' ? `must not have duplicates (items ${p.j} and ${p.i} are the same)` : 'must not have duplicates';
    case 'required':
      return `must have the property ${quoted(p.missingProperty)}`;
    case 'additionalProperties':
      return `must not have the property ${quoted(p.additionalProperty)}`;
    case 'unevaluatedProperties':
      return `must not have the property ${quoted(p.unevaluatedProperty)}`;
    case 'dependentRequired':
    case 'dependencies':
      return `must have the property ${quoted(p.missingProperty)} when it has ${quoted(p.property)}`;
    case 'propertyNames':
      return `has a property name that is not allowed (${quoted(p.propertyName)})`;
    case 'contains':
      return containsWords(p.minContains, p.maxContains);
    case 'oneOf':
      return Array.isArray(p.passingSchemas) ? 'must match exactly one of the allowed forms, but matches more than one' : 'must match one of the allowed forms';
    case 'anyOf':
      return 'must match one of the allowed forms';
    case 'not':
      return 'is a value the schema does not allow';
    case 'if':
      return `does not meet a condition the schema sets for such values (if/${shown(p.failingKeyword)})`;
    case 'false schema':
      return 'is not allowed here';
    default:
      return fallback(error);
  }
}

/** `text`, `text or null`, `a number, text or null`. */
function typeWords(type: unknown): string {
  const types = (Array.isArray(type) ? type : typeof type === 'string' ? type.split(',') : []).map((t) => TYPE_WORDS[String(t)] ?? `of type ${shown(t)}`);
  if (types.length === 0) return 'of another type';
  if (types.length === 1) return types[0];
  // "true or false" holds an "or" of its own: a comma after it keeps the list readable.
  const before = types[types.length - 2];
  return `${types.slice(0, -1).join(', ')}${before.includes(' or ') ? ',' : ''} or ${types[types.length - 1]}`;
}

function formatWords(format: unknown): string {
  const name = typeof format === 'string' ? format : '';
  return Object.prototype.hasOwnProperty.call(FORMAT_WORDS, name) ? FORMAT_WORDS[name] : `a valid ${shown(format)}`;
}

/** `at least 0`, `less than 10`; undefined for a comparison ajv never sends. */
function comparison(op: unknown, limit: unknown): string | undefined {
  const words: Readonly<Record<string, string>> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };
  const phrase = typeof op === 'string' ? words[op] : undefined;
  return phrase && `must be ${phrase} ${shown(limit)}`;
}

function containsWords(min: unknown, max: unknown): string {
  const items = (n: unknown) => count(n, 'matching item', 'matching items');
  if (typeof max === 'number') {
    if (min === max) return `must contain exactly ${items(max)}`;
    return min === 0 || typeof min !== 'number' ? `must contain at most ${items(max)}` : `must contain between ${shown(min)} and ${items(max)}`;
  }
  return `must contain at least ${items(typeof min === 'number' ? min : 1)}`;
}

/** `must be "a"`, `must be one of: "a", "b"`, the first few of a long list. */
function oneOfValues(values: unknown): string {
  if (!Array.isArray(values) || values.length === 0) return 'must be one of the allowed values';
  if (values.length === 1) return `must be ${quoted(values[0])}`;
  const listed = values.slice(0, MAX_ENUM_SHOWN).map(quoted).join(', ');
  const more = values.length - MAX_ENUM_SHOWN;
  return `must be one of: ${listed}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** `1 character`, `2 characters`. */
function count(n: unknown, one: string, many: string): string {
  return `${shown(n)} ${n === 1 ? one : many}`;
}

/** ajv's own words for a keyword we do not know, made one short line (they may quote the schema). */
function fallback(error: ValidatorError): string {
  return oneLine(error.message ?? `does not satisfy "${error.keyword}"`, MAX_FALLBACK_CHARS);
}

/** A schema value as JSON (`"a"`, `1`, `null`), on one line, cut. */
export function quoted(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return oneLine(text);
}

/** A schema value as it is (a pattern, a number), on one line, cut. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? oneLine(value) : quoted(value);
}

/**
 * What a reader could not see or that would break the line: controls (newline and tab too),
 * format characters (zero-width, bidi, tags, soft hyphen), line and paragraph separators, lone
 * surrogates, variation selectors and the invisible fillers; the set sanitize.ts removes, which
 * src/core/tools may not import (eslint.config.mjs CORE_LAYERS).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u115f\u1160\u3164\uffa0]/gu;

/**
 * Text on one line, at most `max` characters with "…" marking a cut. Each invisible character is
 * written as its escape (`\n`, `\u202E`), as `visibleLine` in sanitize.ts does: a schema's pattern
 * shows as it really is. Only a head of a huge text is read.
 */
export function oneLine(text: string, max = MAX_QUOTED_CHARS): string {
  const head = text.length > max ? text.slice(0, max) : text;
  const line = head.replace(INVISIBLE, escapeUnits);
  if (line.length <= max && head === text) return line;
  let end = Math.min(line.length, max - 1);
  if (/[\ud800-\udbff]/.test(line[end - 1] ?? '')) end--; // keep a surrogate pair whole
  // Nor leave half an escape (`\u20`) before the "…".
  return `${line.slice(0, end).replace(/\\(u[0-9A-F]{0,3})?$/, '')}…`;
}

/** `\n`, `\t`, else each UTF-16 code unit as `\uXXXX`. */
function escapeUnits(text: string): string {
  if (text === '\n') return '\\n';
  if (text === '\t') return '\\t';
  let out = '';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}
