import type { Tool } from '@modelcontextprotocol/client';

/** A hint's value and where it came from: the server said so, or the spec default filled it in. */
export interface Hint {
  readonly value: boolean;
  readonly source: 'declared' | 'default' | 'untrusted' | 'sandbox';
}

export interface EffectiveAnnotations {
  readonly readOnly: Hint;
  readonly destructive: Hint;
  readonly idempotent: Hint;
  readonly openWorld: Hint;
}

/** Spec defaults for missing hints (MCP 2025-06-18 "ToolAnnotations"). */
const SPEC_DEFAULTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;
/** The most dangerous value of each hint, for servers whose annotations are not trusted. */
const WORST_CASE = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

type HintName = keyof typeof SPEC_DEFAULTS;

const SOURCE_NUMBER: Readonly<Record<Hint['source'], number>> = { declared: 0, default: 1, untrusted: 2, sandbox: 3 };
// Every hint there can be, made once and frozen: the Tools view reads four for each of thousands of rows.
const both = (source: Hint['source']) => [Object.freeze({ value: false, source }), Object.freeze({ value: true, source })] as const;
const HINTS: Readonly<Record<Hint['source'], readonly [Hint, Hint]>> = { declared: both('declared'), default: both('default'), untrusted: both('untrusted'), sandbox: both('sandbox') };
const hintOf = (value: boolean, source: Hint['source']): Hint => HINTS[source][value ? 1 : 0];

/** A number that tells annotations apart by what they say (values and sources): a cache key for what is drawn from them. */
export function annotationsKey(a: EffectiveAnnotations): number {
  const bits = (h: Hint) => SOURCE_NUMBER[h.source] * 2 + (h.value ? 1 : 0);
  return ((bits(a.readOnly) * 8 + bits(a.destructive)) * 8 + bits(a.idempotent)) * 8 + bits(a.openWorld);
}

/**
 * Declared hints with the spec defaults filled in. When the user does not trust the server's
 * annotations, every hint takes its most dangerous value (a server can say anything).
 */
export function effectiveAnnotations(tool: Pick<Tool, 'annotations'>, trusted: boolean): EffectiveAnnotations {
  const hint = (name: HintName): Hint => {
    if (!trusted) return hintOf(WORST_CASE[name], 'untrusted');
    const declared = tool.annotations?.[name];
    return typeof declared === 'boolean' ? hintOf(declared, 'declared') : hintOf(SPEC_DEFAULTS[name], 'default');
  };
  const readOnly = hint('readOnlyHint');
  // destructive is meaningful only when the tool is not read-only (spec): settled here, so
  // `destructive.value` alone answers "may it destroy?" everywhere.
  const destructive = readOnly.value ? hintOf(false, readOnly.source) : hint('destructiveHint');
  return { readOnly, destructive, idempotent: hint('idempotentHint'), openWorld: hint('openWorldHint') };
}

/**
 * Issue 17, a policy the user chooses (setting mcpToolHost.sandbox.offlineIsClosedWorld): a tool
 * of a server that runs in a sandbox without network reaches nothing outside this machine, so it
 * counts as closed-world. Never for a tool that may destroy. `policyOn` is asked last, only for a
 * tool of such a server: the Tools view asks for every row, and reading a setting is not free.
 */
export function closedBySandbox(a: EffectiveAnnotations, spec: SandboxedSpec, policyOn: () => boolean): EffectiveAnnotations {
  if (a.destructive.value || !a.openWorld.value || !sandboxedOffline(spec) || !policyOn()) return a;
  return { ...a, openWorld: hintOf(false, 'sandbox') };
}

/** What of a server's launch decides it (config/sandboxConfig.ts parses it). */
type SandboxedSpec = { readonly type: string; readonly sandbox?: { readonly allowUnsandboxed: boolean; readonly network: { readonly allowedDomains: readonly string[] } } | false };

/** A stdio server sandboxed with no network at all, and never run unsandboxed. */
export function sandboxedOffline(spec: SandboxedSpec): boolean {
  const box = spec.type === 'stdio' && spec.sandbox;
  return !!box && !box.allowUnsandboxed && box.network.allowedDomains.length === 0;
}

/** The name a person sees: `title`, then `annotations.title`, then `name` (spec). */
export function displayName(tool: Pick<Tool, 'name' | 'title' | 'annotations'>): string {
  return tool.title || tool.annotations?.title || tool.name;
}
