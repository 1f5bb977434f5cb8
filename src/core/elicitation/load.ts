// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only (a static import would load the door with this file). Compiled by tsc it loads the sibling
// door; in the extension, esbuild.mjs points it at the lazy bundle that holds the door.
import type * as Later from './later';
import type * as Links from './links';

/** Form and URL prompts (later.ts), loaded when a server first asks. */
export function loadElicitation(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}

/** The link check and the Public Suffix List (links.ts), loaded when a server first asks to open a link. */
export function loadLinks(): typeof Links {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./links') as typeof Links;
}
