// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only. Compiled by tsc it loads the sibling door; in the extension, esbuild.mjs points it at the
// lazy bundle that holds the door (dist/calls.js).
import type * as Later from './later';

/** What runs a call (later.ts), loaded when CallPipeline first approves, forecasts or calls. */
export function loadCalls(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}
