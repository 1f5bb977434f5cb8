import { loadOffers } from '../../core/offers/load';
import type { OfferHost, PromptOffers, ResourceOffers } from '../../core/offers/offerTypes';

/**
 * The one ResourceOffers and the one PromptOffers of this window, made at first use (their code is
 * dist/offers.js, not for activation) and shared by every surface: the Tools view's rows, the
 * palette and chat see the same listings, subscriptions and log levels. activate() builds this
 * object and hands it to each room; the rooms use it by type.
 */
export class SharedOffers {
  private _resources: ResourceOffers | undefined;
  private _prompts: PromptOffers | undefined;

  constructor(private readonly _host: OfferHost) {}

  resources(): ResourceOffers {
    return (this._resources ??= loadOffers().newResourceOffers(this._host));
  }

  prompts(): PromptOffers {
    return (this._prompts ??= loadOffers().newPromptOffers(this._host));
  }

  dispose(): void {
    this._resources?.dispose();
    this._prompts?.dispose();
  }
}
