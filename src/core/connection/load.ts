// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only (a static import would load the door with this file). Compiled by tsc it loads the sibling
// door; in the extension, esbuild.mjs points it at the lazy bundle that holds the door.
import type * as Later from './later';

/** What only a session uses: raw answers, tasks, parameter headers, skills (later.ts), loaded with the first server. */
export function loadConnection(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}
