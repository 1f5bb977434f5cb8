// What a server offers besides tools (offerTypes.ts says what): reach it through loadOffers()
// (load.ts); elsewhere import these modules as types only. In the extension it is a lazy bundle of
// its own (dist/offers.js, esbuild.mjs).
export { newPromptOffers } from './promptOffers';
import type { OfferHost, ResourceOffers } from './offerTypes';
import { ResourceOfferCatalog } from './resourceOffers';

/** A server's resources and templates: listed, read, filled in, watched (resourceOffers.ts). */
export function newResourceOffers(host: OfferHost): ResourceOffers {
  return new ResourceOfferCatalog(host);
}
export { documentBytes } from './resourceBytes';
