// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only (a static import would load the door with this file). Compiled by tsc it loads the sibling
// door; in the extension, esbuild.mjs points it at the lazy bundle that holds the door.
import type * as Later from './later';
import type * as Jsonc from './jsonc';

/** The MCP SDK client, ajv and RE2 (later.ts), loaded at the first call. */
export function loadSdk(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}

/** The JSONC parser (jsonc.ts), loaded at the first call. */
export function loadJsonc(): typeof Jsonc {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./jsonc') as typeof Jsonc;
}
