// This folder's side of the lazy seam (ARCHITECTURE.md "Limits"): the `require` runs on first use
// only (a static import would load the door with this file). Compiled by tsc it loads the sibling
// door; in the extension, esbuild.mjs points it at the lazy bundle that holds the door.
import type * as Later from './later';

/** Telemetry through OpenTelemetry (later.ts), loaded when telemetry is turned on. */
export function loadTelemetry(): typeof Later {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./later') as typeof Later;
}
