// Which interface a tool declares (MCP Apps; docs/mcp-apps.md). Stateless and small: the Tools
// view reads it at activation (its row marker), the lazy interface code when it opens one.

const MAX_URI_LENGTH = 2048;

/** A declared interface: its `ui://` resource. */
export type AppReference = { readonly kind: 'app'; readonly uri: string } | { readonly kind: 'none' } | { readonly kind: 'invalid'; readonly message: string };

/**
 * The interface a tool declares: `_meta.ui.resourceUri`, else the deprecated flat
 * `_meta["ui/resourceUri"]` (what ext-apps' getToolUiResourceUri reads). Only `ui://` URIs; anything
 * else is `invalid` with a sentence (never a fallback to another scheme).
 */
export function appReferenceOf(tool: { readonly _meta?: unknown }): AppReference {
  const meta = isRecord(tool._meta) ? tool._meta : undefined;
  if (!meta) return { kind: 'none' };
  const nested = isRecord(meta.ui) ? meta.ui.resourceUri : undefined;
  const uri = nested ?? meta['ui/resourceUri'];
  if (uri === undefined) return { kind: 'none' };
  // Printable ASCII only after ui://: no spaces, controls or look-alike characters.
  if (typeof uri !== 'string') return { kind: 'invalid', message: 'The tool declares an interface whose resourceUri is not a string.' };
  if (uri.length > MAX_URI_LENGTH || !/^ui:\/\/[\x21-\x7e]+$/.test(uri)) return { kind: 'invalid', message: 'The tool declares an interface whose resourceUri is not a ui:// URI.' };
  return { kind: 'app', uri };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
