// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only (a static import would load the door with this file). Compiled by tsc it loads the sibling
// door; in the extension, esbuild.mjs points it at the lazy bundle that holds the door.
import type * as Later from './later';
import type * as Links from './links';

/** The host side of a tool interface's conversation (later.ts), loaded when the first interface opens. */
export function loadApps(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}

/** The CSP screening of tool interfaces, over the Public Suffix List (links.ts), loaded when the first interface opens. */
export function loadCsp(): typeof Links {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./links') as typeof Links;
}
