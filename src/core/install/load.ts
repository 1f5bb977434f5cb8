// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only. Compiled by tsc it loads the sibling door; in the extension, esbuild.mjs points it at the
// lazy bundle that holds the door (dist/install.js).
import type * as Later from './later';

/** Registry search, bundles and install plans (later.ts), loaded when a surface first installs. */
export function loadInstall(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}
