/**
 * The extension a saved result gets for its MIME type. The server names the type, so the name is
 * chosen from lists of ours, never from the type's text: a "type" such as `x/exe` or `a/hta` must
 * not become a program the OS runs on a double-click.
 */
export interface ResultFileType {
  /** Without the dot: `png`, `svg.txt`, `bin`. */
  readonly extension: string;
  /** Set for a type that runs scripts when a browser or VS Code opens it: saved as text, and the user is told why. */
  readonly inert?: string;
}

/** Types that open as what they are and run nothing: their usual extension. */
const PLAIN: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/webm': 'weba',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/markdown': 'md',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'application/x-tar': 'tar',
  'application/octet-stream': 'bin',
};

/** Types a browser renders with scripts, or runs: saved as `<their extension>.txt`, so opening one shows its text. */
const ACTIVE: Readonly<Record<string, string>> = {
  'text/html': 'html',
  'application/xhtml+xml': 'xhtml',
  'image/svg+xml': 'svg',
  'text/javascript': 'js',
  'application/javascript': 'js',
  'application/x-javascript': 'js',
  'text/ecmascript': 'js',
  'application/ecmascript': 'js',
  'text/xml': 'xml',
  'application/xml': 'xml',
  'text/xsl': 'xsl',
  'application/xslt+xml': 'xsl',
  'application/hta': 'hta',
  'text/vbscript': 'vbs',
};

/**
 * The extension for a result of type `mimeType` (case and parameters ignored): its usual one for a
 * type that runs nothing, `<ext>.txt` for one a browser or VS Code would render with scripts (any
 * XML too: XSLT and XHTML run inside it), and `bin` for anything else.
 */
export function resultFileType(mimeType: string): ResultFileType {
  const essence = mimeType.split(';')[0].trim().toLowerCase();
  const active = ACTIVE[essence] ?? (/^[a-z]+\/[\w.+-]+\+xml$/.test(essence) ? 'xml' : undefined);
  if (active) return { extension: `${active}.txt`, inert: essence };
  if (PLAIN[essence]) return { extension: PLAIN[essence] };
  return { extension: /^[a-z]+\/[\w.+-]+\+json$/.test(essence) ? 'json' : 'bin' };
}

/** What the user is told of a result saved as text for its type. */
export function inertNote(type: ResultFileType): string | undefined {
  return type.inert === undefined ? undefined : `saved as text: ${type.inert} can run scripts when opened`;
}
