// The lazy seam (ARCHITECTURE.md "Limits"): typed loaders for the modules that activation must
// not load. Each `require` runs on first use only (a static import would load it with this file).
// Compiled by tsc it loads the sibling module; in dist/extension.js, esbuild.mjs turns `./heavy`
// into dist/core.js, `./jsonc` into dist/jsonc.js (likewise ./rules, ./auth, ./search, ./links), bundles of their
// own; the CLI bundle holds them inline.
import type * as Auth from './auth';
import type * as Heavy from './heavy';
import type * as Jsonc from './jsonc';
import type * as Links from './links';
import type * as Rules from './rules';
import type * as Search from './search';

// No cache of our own: Node's module cache makes each later `require` a lookup, and a module without
// state may be copied into several bundles (esbuild.mjs) and still hand out the one loaded module.

/** The MCP SDK client, ajv and our server-only leaf modules (heavy.ts), loaded at the first call. */
export function loadHeavy(): typeof Heavy {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./heavy') as typeof Heavy;
}

/** The JSONC parser (jsonc.ts), loaded at the first call. */
export function loadJsonc(): typeof Jsonc {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./jsonc') as typeof Jsonc;
}

/** The argument-rule engine (rules.ts), loaded at the first call that has rules to apply. */
export function loadRules(): typeof Rules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./rules') as typeof Rules;
}

/** OAuth sign-in (auth.ts), loaded at the launch of the first remote server. */
export function loadAuth(): typeof Auth {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./auth') as typeof Auth;
}

/** The link check and the Public Suffix List (links.ts), loaded when a server first asks to open a link. */
export function loadLinks(): typeof Links {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./links') as typeof Links;
}

/** Tool search and token counts (search.ts), loaded at the first search or count. */
export function loadSearch(): typeof Search {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./search') as typeof Search;
}
