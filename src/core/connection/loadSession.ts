// The session runtime's side of the lazy seam, apart from load.ts: what it loads (the SDK client of
// a session, its era clients) reaches load.ts's door itself, so one loader file for both would
// close a loop of imports. Compiled by tsc it loads the sibling door; in the extension, esbuild.mjs
// points it at dist/session.js.
import type * as Session from './sessionRuntime';

/** The SDK client of a session and what differs by era (sessionRuntime.ts), loaded when a launch first builds a client. */
export function loadSession(): typeof Session {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./sessionRuntime') as typeof Session;
}
