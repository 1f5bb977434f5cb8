import type { InstallClaim, InstallPlan } from './installPlan';

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
  /** The plan, when it can be installed as it is. */
  readonly plan?: InstallPlan;
  /** An MCP Bundle to download and check first (`downloadBundle`), which then gives the plan. */
  readonly bundle?: RegistryBundle;
  /** Why it cannot be, when it cannot (an unknown registry type, a version of `latest`, a URL with credentials, ...). */
  readonly problem?: string;
}

/** A bundle (.mcpb) a registry entry points at, with what the registry says of it. */
export interface RegistryBundle {
  /** Where it is downloaded from: https (http only to this machine), no credentials. */
  readonly url: string;
  /** The sha256 of the file, lower-case hex, as the registry gives it: what is downloaded must have it. */
  readonly sha256: string;
  /** The settings name suggested (the registry's, as for its other options). */
  readonly name: string;
  /** `registry <url> <name>@<version>`. */
  readonly origin: string;
  /** The registry's claims about the entry. */
  readonly claims: readonly InstallClaim[];
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
  /**
   * The latest version of each server matching `query` (all of them for ''), a page at a time;
   * with `version`, the servers that have that exact version, at that version.
   */
  search(query: string, options?: { readonly cursor?: string; readonly limit?: number; readonly signal?: AbortSignal; readonly version?: string }): Promise<RegistryPage>;
}
