import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerLogs } from '../shared/serverLogs';
import type { SharedOffers } from '../shared/sharedOffers';
import type { ResourceFileSystem } from './resourceFs';

/** What the resource commands' bodies (later.ts) need. */
export interface ResourceDeps {
  readonly pool: ServerPool;
  readonly offers: SharedOffers;
  readonly fs: ResourceFileSystem;
  readonly logs: ServerLogs;
}

/** A resource as a row or a test names it; `name` and `mimeType` (as listed) pick the tab's name and how it opens. */
export interface ResourceTarget {
  readonly server: string;
  readonly uri: string;
  readonly name?: string;
  readonly mimeType?: string;
}

/** A template as a row or a test names it. */
export interface TemplateTarget {
  readonly server: string;
  readonly uriTemplate: string;
}
