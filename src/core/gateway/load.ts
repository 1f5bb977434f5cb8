// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only. Compiled by tsc it loads the sibling door; in the extension, esbuild.mjs points it at the
// lazy bundle that holds the door (dist/gateway.js).
import type * as Later from './later';

/** The MCP gateway (later.ts), loaded when a gateway starts. */
export function loadGateway(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}
