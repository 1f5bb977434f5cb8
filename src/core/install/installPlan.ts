/**
 * What installing a stranger's server means, whatever it came from (a registry entry, a bundle):
 * the settings entry that would be written, the values it asks for, and what its source says
 * about it. Producers (the registry, bundles) build one; the surfaces (VS Code, the CLI) show it
 * whole, ask, and write it. Types only: importing this file loads nothing.
 */

/** A value the server needs before it can start, asked at install time. */
export interface InstallInput {
  /**
   * Where the value goes in the entry: `${input:<id>}`. Ids are the server's name, a dot and the
   * variable's own name (`github.GITHUB_TOKEN`), so one installed server never receives a value
   * the user gave another.
   */
  readonly id: string;
  /** The variable, header or argument as the source names it (sanitised before it is shown). */
  readonly label: string;
  /** The source's description of it: a claim, shown as one. */
  readonly description?: string;
  /** Kept in secret storage (VS Code) or taken from the environment (CLI); never written into settings. */
  readonly secret: boolean;
  readonly required: boolean;
  readonly default?: string;
  readonly choices?: readonly string[];
}

/** One thing a source says about its server, shown as "<label>: <value>" under "It claims". */
export interface InstallClaim {
  readonly label: string;
  readonly value: string;
}

/** A server ready to be shown and, if the user agrees, installed. */
export interface InstallPlan {
  /** The settings name suggested (newServerEntry.ts `suggestServerName` rules); the user may change it. */
  readonly name: string;
  /**
   * The entry exactly as `mcpToolHost.servers` (or a CLI config's `servers`) will hold it:
   * `{ command, args, env? }` or `{ type: 'http', url, headers? }`. Every asked value appears as
   * `${input:<id>}`; versions are exact (never `latest`).
   */
  readonly entry: Readonly<Record<string, unknown>>;
  readonly inputs: readonly InstallInput[];
  /** The source's description, publisher, version, repository, declared tools and permissions: claims, not facts. */
  readonly claims: readonly InstallClaim[];
  /** Where it came from, for titles and the audit log: `registry <url> <name>@<version>` or `bundle <file> sha256:<hex>`. */
  readonly origin: string;
  /** What runs it: npm, pypi, oci, mcpb (a bundle) or remote (a URL). */
  readonly runsVia: 'npm' | 'pypi' | 'oci' | 'mcpb' | 'remote';
}
