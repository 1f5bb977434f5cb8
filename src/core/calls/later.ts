// The part of CallPipeline that runs calls (callRunner.ts): the approve stage, the call, its task,
// the rendering and the audit record, loaded with the first call. Reach it through loadCalls()
// (load.ts); elsewhere import these modules as types only. In the extension it is a lazy bundle of
// its own (dist/calls.js, esbuild.mjs).
export { newCallRunner } from './callRunner';
