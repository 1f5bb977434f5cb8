// The VS Code layer's side of the lazy seam (ARCHITECTURE.md "Limits"); the core's doors are each
// core folder's load.ts. Compiled by tsc it loads the sibling module; in dist/extension.js, esbuild.mjs
// turns `./chat` into dist/chat.js and `./forms` into dist/forms.js.
import type * as Chat from './chat';
import type * as Forms from './forms';

let chat: typeof Chat | undefined;
let forms: typeof Forms | undefined;

/** The chat participant's request handling (chat.ts), loaded at the first request. */
export function loadChat(): typeof Chat {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (chat ??= require('./chat') as typeof Chat);
}

/** The argument prompts of a call (forms.ts), loaded at the first call that asks for arguments. */
export function loadForms(): typeof Forms {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (forms ??= require('./forms') as typeof Forms);
}
