/**
 * Elicitation in form mode (`elicitation/create`): a server asks the user for a few values in the
 * middle of a call. The form is the server's, so everything in it is hostile text and its schema
 * is checked here: the spec allows a flat object of strings (with a few formats), numbers,
 * integers, booleans and enums (single or multi select, titled or not). A form outside that
 * shape is declined, never half-shown.
 */

import type { PromptContext } from './promptContext';
import type { UrlRequest } from './urlElicitation';
import type { CallSignal } from '../callSignal';

/** One value a form asks for, as a prompt needs it. */
export interface FormField {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  readonly required: boolean;
  /** The schema's `default`, when it fits the field (SEP-1034: defaults are applied for the user). */
  readonly default?: FormValue;
  /** The values a choice may take, with their labels. */
  readonly options?: readonly { readonly value: string; readonly label: string }[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The field looks like it asks for a credential (a password, token, key): the prompt warns and masks it. */
  readonly secret?: boolean;
}

export type FormValue = string | number | boolean | string[];

/**
 * How the calls a prompt belongs to ended (the reason of its `callsEnded`): a prompt still waiting
 * is dropped, one still open is closed, saying why.
 */
export type CallEnd = 'finished' | 'cancelled' | 'timed-out' | 'server-stopped' | 'failed' | 'withdrawn';

/**
 * When a prompt is given up: its calls ended (`callsEnded`), or the server withdrew the request
 * itself (`withdrawn`, notifications/cancelled for it), the reason then `'withdrawn'`.
 */
export function endedOrWithdrawn(callsEnded: AbortSignal | undefined, withdrawn: AbortSignal | undefined): AbortSignal | undefined {
  if (!withdrawn) return callsEnded;
  const gone = new AbortController();
  const onWithdrawn = () => gone.abort('withdrawn' satisfies CallEnd);
  if (withdrawn.aborted) onWithdrawn();
  else withdrawn.addEventListener('abort', onWithdrawn, { once: true });
  return callsEnded ? AbortSignal.any([callsEnded, gone.signal]) : gone.signal;
}

/**
 * Asks the user (`ask`), holding the calls the prompt belongs to as answering meanwhile (`hold`:
 * their idle timers stand still): until the user answered and, for a link they opened,
 * until the server says its page is done (`page`) or the host stops waiting on it.
 */
export async function whileAnswering(hold: () => () => void, ask: () => Promise<ElicitationAnswer>, page: Promise<boolean> | undefined): Promise<ElicitationAnswer> {
  const release = hold();
  let onPage = false;
  try {
    const answer = await ask();
    onPage = page !== undefined && answer.action === 'accept';
    if (onPage) void page!.finally(release);
    return answer;
  } finally {
    if (!onPage) release();
  }
}

/** How a call that threw ended, for a prompt of it still open: cancelled, timed out, its server gone, or failed. */
export function callEndOf(err: unknown, signal: CallSignal | undefined, sessionGone: boolean): CallEnd {
  if (signal?.aborted) return 'cancelled';
  // The session ended under the call (the SDK says "Connection closed"; our raw requests "The server session ended").
  if (sessionGone || /connection closed|session ended/i.test(err instanceof Error ? err.message : '')) return 'server-stopped';
  const code = (err as { code?: unknown } | undefined)?.code;
  // The SDK's and our raw requests' timeout (rawAnswers.ts), as callErrors.ts reads it.
  return code === 'REQUEST_TIMEOUT' || code === -32001 ? 'timed-out' : 'failed';
}

/** What a server asks: who, during which calls, the message it shows, and the fields. */
export interface FormRequest extends PromptContext {
  readonly mode?: 'form';
  readonly message: string;
  readonly fields: readonly FormField[];
  /** The form's `requestedSchema` as the server sent it (its shape checked by formFields): for a host that passes the form on to another client. */
  readonly schema?: unknown;
}

/** The user's answer, as `elicitation/create` returns it. */
export type ElicitationAnswer = { readonly action: 'accept'; readonly content: Record<string, FormValue> } | { readonly action: 'decline' } | { readonly action: 'cancel' };

/** Asks the user (a terminal, a quick input); the host's way to answer a form or a link to open. */
export type Elicitor = (request: FormRequest | UrlRequest) => Promise<ElicitationAnswer>;

/** At most this many fields: a form is a few questions, not a document. */
const MAX_FIELDS = 50;
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
/** Words that say a field wants a credential (in its name, title or description). */
const SECRET_WORDS = /pass(word|wd|phrase|code)|secret|token|api[\s_-]?key|private[\s_-]?key|access[\s_-]?key|credential|\bpin\b|\bcvv\b|\bssn\b/i;

/** The fields of a form's `requestedSchema`, or why the form cannot be shown. */
export function formFields(requestedSchema: unknown): FormField[] | string {
  if (!isObject(requestedSchema) || requestedSchema.type !== 'object' || !isObject(requestedSchema.properties)) return 'the form is not an object schema with properties';
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r): r is string => typeof r === 'string') : [];
  const entries = Object.entries(requestedSchema.properties);
  if (entries.length > MAX_FIELDS) return `the form asks for ${entries.length} values (at most ${MAX_FIELDS})`;
  const fields: FormField[] = [];
  for (const [name, schema] of entries) {
    const field = fieldOf(name, schema, required.includes(name));
    if (typeof field === 'string') return `field "${name}": ${field}`;
    fields.push(field);
  }
  return fields;
}

/** The answer the form's defaults give (SEP-1034), or the required field that has none. */
export function defaultAnswer(fields: readonly FormField[]): Record<string, FormValue> | string {
  const content: Record<string, FormValue> = {};
  for (const field of fields) {
    if (field.default !== undefined) content[field.name] = field.default;
    else if (field.required) return `the required field "${field.name}" has no default`;
  }
  return content;
}

/** What is wrong with `value` for `field` (empty when it fits). */
export function checkValue(field: FormField, value: FormValue): string | undefined {
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength) return `must have at least ${field.minLength} character${field.minLength === 1 ? '' : 's'}`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `must have at most ${field.maxLength} characters`;
      return field.format ? formatProblem(field.format, value) : undefined;
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'choice':
      return typeof value === 'string' && field.options?.some((o) => o.value === value) ? undefined : 'must be one of the choices';
    case 'choices':
      return Array.isArray(value) && value.every((v) => field.options?.some((o) => o.value === v)) ? undefined : 'must be some of the choices';
  }
}

function fieldOf(name: string, schema: unknown, required: boolean): FormField | string {
  if (!isObject(schema)) return 'not a schema';
  const base = { name, required, title: text(schema.title), description: text(schema.description) };
  if (schema.type === 'array') {
    const items = isObject(schema.items) ? schema.items : undefined;
    const options = items && (optionsOf(items.enum, undefined) ?? titledOptions(items.anyOf ?? items.oneOf));
    if (!options) return 'a list of choices without its choices';
    const field: FormField = { ...base, kind: 'choices', options };
    return withDefault(field, schema.default);
  }
  if (schema.type === 'string' && (schema.enum !== undefined || schema.oneOf !== undefined)) {
    const options = optionsOf(schema.enum, schema.enumNames) ?? titledOptions(schema.oneOf);
    if (!options) return 'a choice without its choices';
    return withDefault({ ...base, kind: 'choice', options }, schema.default);
  }
  if (schema.type === 'string') {
    const secret = looksSecret(name, schema) || undefined;
    const format = typeof schema.format === 'string' && FORMATS.has(schema.format) ? schema.format : undefined;
    return withDefault({ ...base, kind: 'string', format, minLength: count(schema.minLength), maxLength: count(schema.maxLength), secret }, schema.default);
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return withDefault({ ...base, kind: schema.type, minimum: finite(schema.minimum), maximum: finite(schema.maximum) }, schema.default);
  }
  if (schema.type === 'boolean') return withDefault({ ...base, kind: 'boolean' }, schema.default);
  return `type ${JSON.stringify(schema.type)} is not one a form may ask for`;
}

/** The field with its default, when the default fits it (a default that does not fit is left out). */
function withDefault(field: FormField, value: unknown): FormField {
  if (value === undefined) return field;
  const candidate = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : value;
  if (typeof candidate !== 'string' && typeof candidate !== 'number' && typeof candidate !== 'boolean' && !Array.isArray(candidate)) return field;
  return checkValue(field, candidate) === undefined ? { ...field, default: candidate } : field;
}

/**
 * A text field that asks for a credential: its name, title or description says so, or its format
 * or `writeOnly` does. Servers should use URL mode for secrets; a form that asks anyway is flagged.
 */
function looksSecret(name: string, schema: Record<string, unknown>): boolean {
  if (schema.format === 'password' || schema.writeOnly === true) return true;
  return [name, schema.title, schema.description].some((t) => typeof t === 'string' && SECRET_WORDS.test(t));
}

function optionsOf(values: unknown, names: unknown): FormField['options'] | undefined {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return undefined;
  const labels = Array.isArray(names) && names.length === values.length ? names : undefined;
  return values.map((value: string, i) => ({ value, label: typeof labels?.[i] === 'string' ? (labels[i] as string) : value }));
}

function titledOptions(variants: unknown): FormField['options'] | undefined {
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const options = variants.map((v) => (isObject(v) && typeof v.const === 'string' ? { value: v.const, label: typeof v.title === 'string' ? v.title : v.const } : undefined));
  return options.every((o) => o !== undefined) ? (options as { value: string; label: string }[]) : undefined;
}

function formatProblem(format: string, value: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : 'must be an email address';
    case 'uri':
      return URL.canParse(value) ? undefined : 'must be a URL';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'must be a date like 2024-01-31';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'must be a date and time like 2024-01-31T12:00:00Z';
    default:
      return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
