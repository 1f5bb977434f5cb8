// The VS Code layer's side of the lazy seam (ARCHITECTURE.md "Limits"); src/core/lazy/load.ts
// is the core's. Compiled by tsc it loads the sibling module; in dist/extension.js, esbuild.mjs
// turns `./chat` into dist/chat.js.
import type * as Chat from './chat';

let chat: typeof Chat | undefined;

/** The chat participant's request handling (chat.ts), loaded at the first request. */
export function loadChat(): typeof Chat {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (chat ??= require('./chat') as typeof Chat);
}
