// Form and URL prompts: what a server asks in the middle of a call. Reach it through
// loadElicitation() (load.ts); elsewhere import these modules as types only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { callEndOf, checkValue, defaultAnswer, endedOrWithdrawn, formFields, whileAnswering } from './formElicitation';
export { ElicitationCompletions } from './urlElicitation';
