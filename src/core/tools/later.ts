// Plain messages for what a schema check found, used once a validator ran. Reach it through
// loadTools() (load.ts); elsewhere import plainMessages.ts as a type only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { oneLine, plainMessage } from './plainMessages';
