// What only a running server uses: line framing, the message pump, the off-thread JSON parser,
// process trees and the sandbox (stdio), and the bound on what a message may bring (HTTP). Reach it through loadTransport() (load.ts); elsewhere
// import these modules as types only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { boundedFetch } from './boundedFetch';
export { LineFramer } from './lineFramer';
export { MessagePump } from './messagePump';
export { OffThreadJsonParser } from './offThreadJson';
export { stopTree } from './processTree';
export { explainToolFailure, installHint, sandboxCheck, sandboxDenial, sandboxFacts, wrapLaunch } from './sandbox';
export { freeLoopbackPort, inspectorPort, withInspector } from './inspector';
