import type { InstallPlan } from './installPlan';

/**
 * A registry of MCP servers as the surfaces see it (the official registry's read API, v0.1, or an
 * organisation's own at the same paths). Every entry was checked before it got here: what cannot be
 * installed safely says why instead of offering a plan. Types only.
 */

/** One way to run an entry (a package or a remote), installable or not. */
export interface InstallOption {
  /** What runs it; `unknown` for a registry type this host cannot run (never with a plan). */
  readonly runsVia: InstallPlan['runsVia'] | 'unknown';
  /** What it runs, one line: `npm @scope/pkg@1.2.3`, `remote https://...`. Sanitised. */
  readonly label: string;
  /** The plan, when it can be installed. */
  readonly plan?: InstallPlan;
  /** Why it cannot be, when it cannot (an unknown registry type, a version of `latest`, a URL with credentials, ...). */
  readonly problem?: string;
}

/** A server of the registry, its text sanitised and bounded for display (claims, not facts). */
export interface RegistryEntry {
  /** The registry's name, reverse-DNS (`io.github.user/server`). */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly version: string;
  /** The publisher's namespace: the part of the name before the slash. */
  readonly namespace: string;
  readonly repositoryUrl?: string;
  readonly websiteUrl?: string;
  readonly options: readonly InstallOption[];
}

/** One page of a search. */
export interface RegistryPage {
  readonly entries: readonly RegistryEntry[];
  /** Pass back to get the next page; absent on the last one. */
  readonly nextCursor?: string;
  /** Entries the registry sent that were not shown at all (malformed), with why: never silently. */
  readonly dropped: readonly { readonly name: string; readonly reason: string }[];
}

export interface RegistryClient {
  /** The registry's base URL, as configured. */
  readonly baseUrl: string;
  /** The latest version of each server matching `query` (all of them for ''), a page at a time. */
  search(query: string, options?: { readonly cursor?: string; readonly limit?: number; readonly signal?: AbortSignal }): Promise<RegistryPage>;
}
