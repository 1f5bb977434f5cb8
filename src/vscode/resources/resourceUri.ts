import * as vscode from 'vscode';

/**
 * Our scheme for a server's resource. A resource opens only as `mcp-tool-host-resource:/<server>/<uri>/<file name>` (VS Code's own MCP support has `mcp-resource:`)
 * (server and URI percent-encoded, read through ResourceFileSystem), never at the server's own
 * URI: whatever scheme that has (`file:`, `javascript:`, `https:`, another extension's), VS Code
 * never resolves it.
 */
export const RESOURCE_SCHEME = 'mcp-tool-host-resource';

/** Which resource of which server one of our URIs names, or undefined for any other URI. */
export interface ResourceAddress {
  readonly server: string;
  readonly uri: string;
}

/** The extensions a mime type's text or image opens with (so the editor picks the language, the image preview the format). */
const EXTENSION_OF: Readonly<Record<string, string>> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'text/css': 'css',
  'text/csv': 'csv',
  'text/xml': 'xml',
  'text/javascript': 'js',
  'text/x-python': 'py',
  'text/yaml': 'yaml',
  'application/json': 'json',
  'application/xml': 'xml',
  'application/yaml': 'yaml',
  'application/javascript': 'js',
  'image/svg+xml': 'svg',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
};

/** The language a text's mime type names, when it names one. */
const LANGUAGE_OF: Readonly<Record<string, string>> = {
  'text/markdown': 'markdown',
  'text/html': 'html',
  'text/css': 'css',
  'text/xml': 'xml',
  'text/javascript': 'javascript',
  'text/x-python': 'python',
  'text/yaml': 'yaml',
  'application/json': 'json',
  'application/xml': 'xml',
  'application/yaml': 'yaml',
  'application/javascript': 'javascript',
  'image/svg+xml': 'xml',
};

/** Images VS Code's image preview shows (SVG opens as text: it can hold scripts). */
export const PREVIEWED_IMAGES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);

/** A mime type without its parameters, lowercased ("text/plain; charset=utf-8" is "text/plain"). */
export function baseMime(mimeType: string | undefined): string | undefined {
  const base = mimeType?.split(';')[0]?.trim().toLowerCase();
  return base || undefined;
}

export function languageOf(mimeType: string | undefined): string | undefined {
  const base = baseMime(mimeType);
  return base === undefined ? undefined : LANGUAGE_OF[base];
}

/**
 * A file name for the editor's tab: the last part of the resource's name or URI, kept to letters,
 * digits, `.`, `-` and `_`, and the extension of its mime type when it has one we know (a name
 * never picks an image preview or another editor by its own extension).
 */
export function fileNameFor(name: string | undefined, uri: string, mimeType: string | undefined): string {
  const last = (name || uri).split(/[\\/]/).filter(Boolean).pop() ?? '';
  let stem = last.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60) || 'resource';
  const extension = EXTENSION_OF[baseMime(mimeType) ?? ''];
  if (!extension) return /\.(png|jpe?g|gif|webp|bmp|ico|svg)$/i.test(stem) ? `${stem}.txt` : stem;
  stem = stem.replace(/\.[A-Za-z0-9]{1,8}$/, '');
  return `${stem || 'resource'}.${extension}`;
}

export function resourceUri(address: ResourceAddress, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${encodeURIComponent(address.server)}/${encodeURIComponent(address.uri)}/${fileName}` });
}

export function addressOf(uri: vscode.Uri): ResourceAddress | undefined {
  if (uri.scheme !== RESOURCE_SCHEME) return undefined;
  const parts = uri.path.split('/');
  if (parts.length !== 4 || parts[0] !== '') return undefined;
  try {
    return { server: decodeURIComponent(parts[1] ?? ''), uri: decodeURIComponent(parts[2] ?? '') };
  } catch {
    return undefined;
  }
}
