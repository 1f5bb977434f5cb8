// How much one listing may hold: read by the settings at activation, so apart from the listing itself (a lazy bundle).

/** Pages one listing may take: ends a server whose `nextCursor` never converges (the SDK's cap, and its words). */
export const MAX_LIST_PAGES = 64;

/**
 * Tools one server may list (setting `mcpToolHost.maxToolsPerServer`): twice the largest listing we
 * test (the bench lists 10,000), far past any real server, and each tool costs the tree, pins and chat.
 */
export const DEFAULT_MAX_TOOLS = 20_000;

/**
 * The weight of one server's tool list across its pages (setting `mcpToolHost.maxToolListSize`): each
 * page is under the per-message cap, but 64 such pages took the CLI to 4.8 GB and an out-of-memory
 * abort. The default is one message's worth.
 */
export const DEFAULT_MAX_TOOL_LIST_BYTES = 64 * 1024 * 1024;

/** How much a listing may hold; undefined takes the default. */
export interface ListingLimits {
  readonly maxTools?: number;
  readonly maxBytes?: number;
}
