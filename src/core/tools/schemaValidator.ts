import type { default as Ajv, ValidateFunction, ErrorObject } from 'ajv';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { RE2JS } from 're2js';
import { loadSdk } from '../packages/load';
import { loadTools } from './load';
import { pointerPath, problemText, type SchemaProblem } from './schemaProblems';

export type SchemaCheck = { readonly valid: true } | { readonly valid: false; readonly problems: readonly SchemaProblem[] };
export type CompiledSchema = { readonly ok: true; check(value: unknown): SchemaCheck } | { readonly ok: false; readonly error: string };

type Dialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * JSON Schema validation for tool inputs and outputs (replacing the SDK's validator, which
 * compiles every output schema of every listing eagerly): schemas compile lazily on first use
 * and stay cached per schema object; the
 * dialect follows `$schema` (none means 2020-12, retried as draft-07 when it will not compile
 * that way); a schema that does not compile is reported for that one tool, never thrown.
 * `pattern` and `patternProperties` run on RE2 (`linearRegExp`), so no schema a server sends
 * can block the host with a backtracking regex.
 */
export class SchemaValidator implements jsonSchemaValidator {
  private readonly _engines = new Map<Dialect, Ajv>();
  private readonly _cache = new WeakMap<object, CompiledSchema>();

  compile(schema: unknown): CompiledSchema {
    if (typeof schema !== 'object' || schema === null) return { ok: false, error: 'schema is not an object' };
    let compiled = this._cache.get(schema);
    if (!compiled) {
      compiled = this._compile(schema as Record<string, unknown>);
      this._cache.set(schema, compiled);
    }
    return compiled;
  }

  /**
   * The SDK's validator port: used for `structuredContent` when the SDK validates at all. It
   * compiles on first use: the SDK asks for a validator for every tool of a listing at the first
   * call after it (1,000 output schemas took ~0.5 s, 10,000 ~4 s, before this was lazy).
   */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled: CompiledSchema | undefined;
    return (input: unknown) => {
      compiled ??= this.compile(schema);
      if (!compiled.ok) return { valid: false, data: undefined, errorMessage: `schema does not compile: ${compiled.error}` };
      const result = compiled.check(input);
      return result.valid
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: result.problems.map(problemText).join('; ') };
    };
  }

  private _compile(schema: Record<string, unknown>): CompiledSchema {
    const declared = dialectOf(schema.$schema);
    const attempts: Dialect[] = declared ? [declared] : ['2020-12', 'draft-07'];
    let lastError = '';
    for (const dialect of attempts) {
      try {
        const fn = this._engine(dialect).compile(schema);
        return { ok: true, check: (value) => runCheck(fn, value) };
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
    }
    return { ok: false, error: lastError };
  }

  private _engine(dialect: Dialect): Ajv {
    let engine = this._engines.get(dialect);
    if (!engine) {
      // logger: false: ajv would print a schema's text (unknown formats...) to the console, escapes and all.
      const heavy = loadSdk();
      const options = { strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, logger: false as const, code: { regExp: linearRegExp(heavy.RE2JS) } };
      engine =
        dialect === '2020-12' ? new heavy.Ajv2020(options)
        : dialect === '2019-09' ? new heavy.Ajv2019(options)
        : new heavy.Ajv(options);
      heavy.addFormats(engine);
      this._engines.set(dialect, engine);
    }
    return engine;
  }
}

/** Patterns larger than this (RE2 instructions; `.{0,1000}` is ~1,000) are refused: matching costs up to their size per character. */
const MAX_PATTERN_SIZE = 5_000;
/**
 * The most one pattern check may cost (characters × RE2 instructions): ~0.2 s at RE2's slowest
 * (~20 ns a step). A text over it fails the pattern unchecked: a false "must match pattern" on a
 * huge text beats stalling the host (1,000,000 characters pass a 10-instruction pattern).
 */
const MAX_PATTERN_STEPS = 10_000_000;

/**
 * ajv's regex engine (`code.regExp`) on RE2JS, a pure-JavaScript port of RE2: matching takes
 * time linear in the text, where JavaScript's backtracking RegExp takes minutes on `^(a+)+$`
 * against 40 characters. RE2 has no backreferences or lookaround: such a pattern
 * makes its schema not compile (reported for that one tool, whose values then go unchecked)
 * rather than falling back to RegExp, since any fallback would let a server opt out of the
 * bound by adding a lookahead. The formats of ajv-formats are its own regexes, not a server's.
 */
function linearRegExp(re2: typeof RE2JS): RegExpEngine {
  const engine = (pattern: string): RegExpLike => {
    let compiled: RE2JS;
    try {
      compiled = re2.compile(re2.translateRegExp(pattern));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`pattern ${shown(pattern)} is not supported by the linear-time regex engine, which has no backreferences or lookaround (${reason})`, { cause: err });
    }
    const size = compiled.programSize();
    if (size > MAX_PATTERN_SIZE) throw new Error(`pattern ${shown(pattern)} is too large (${size} RE2 instructions, over ${MAX_PATTERN_SIZE})`);
    // toString is ajv's cache key for the compiled pattern: the pattern itself keeps keys distinct.
    const like = { test: (text: string) => text.length * size <= MAX_PATTERN_STEPS && compiled.test(text), toString: () => pattern };
    return like;
  };
  // `code` names the engine only in standalone code, which we never generate.
  return Object.assign(engine, { code: 'linearRegExp' });
}

/** A pattern quoted for a message, cut at 80 characters (a server can send a huge one). */
function shown(pattern: string): string {
  return JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern);
}

function dialectOf(uri: unknown): Dialect | undefined {
  if (typeof uri !== 'string') return undefined;
  // draft-04/06 are read by the draft-07 engine, which covers what tool schemas use of them.
  if (/draft-0[467]/.test(uri)) return 'draft-07';
  if (uri.includes('2019-09')) return '2019-09';
  if (uri.includes('2020-12')) return '2020-12';
  return undefined;
}

function runCheck(fn: ValidateFunction, value: unknown): SchemaCheck {
  if (fn(value)) return { valid: true };
  return { valid: false, problems: (fn.errors ?? []).map(problemOf) };
}

/** One ajv error as a problem: which value, and why in plain words (ajv's are for schema authors). */
function problemOf(error: ErrorObject): SchemaProblem {
  const path = pointerPath(error.instancePath);
  const message = loadTools().plainMessage(error);
  if (error.keyword === 'required') return { path, kind: 'missing', property: String(error.params.missingProperty), message };
  if (error.keyword === 'additionalProperties') return { path, kind: 'unexpected', property: String(error.params.additionalProperty), message };
  return { path, kind: 'other', message };
}
