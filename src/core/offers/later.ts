export { newPromptOffers } from './promptOffers';
// What a server offers besides tools (offerTypes.ts says what): reach it through loadOffers()
// (load.ts); elsewhere import these modules as types only. In the extension it is a lazy bundle of
// its own (dist/offers.js, esbuild.mjs).
export {};
