// The session runtime's client side: the SDK client of one session, its era clients, tasks and
// input rounds. Reach it through loadSession() (loadSession.ts) when a launch builds its client; elsewhere
// import these modules as types only. In the extension it is a lazy bundle of its own
// (dist/session.js, esbuild.mjs): activation does not load it.
export { newSessionClient } from './sessionClient';
