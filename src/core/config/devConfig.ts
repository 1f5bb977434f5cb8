/**
 * A server's `dev` entry, the shape of VS Code's mcp.json (`"dev": { "watch": "build/**\/*.js",
 * "debug": { "type": "node" } }`): files whose change restarts the server, and a debugger
 * attached to it. Parsed here; watched by connection/devWatch.ts, the inspector added by
 * transport/inspector.ts. Behind the folder's door (later.ts): only a configuration with a
 * `dev` loads it.
 */

/** What dev mode does for one server. */
export interface DevSettings {
  /** Glob patterns relative to the workspace folder; a change of a matching file restarts the server. */
  readonly watch: readonly string[];
  /** The debugger to attach; a type other than `node` is kept so the log can say it is not supported. */
  readonly debug?: { readonly type: string };
}

const DEV_KEYS = new Set(['watch', 'debug']);
/** VS Code's `debugpy` entry has a `debugpyPath`; we accept the shape so the file loads, and say in the log that it is not supported. */
const DEBUG_KEYS = new Set(['type', 'debugpyPath']);

/**
 * Validates a `dev` value. Patterns are relative to the workspace folder and stay inside it: an
 * absolute path, a `~` or a `..` segment is refused, so a repository cannot watch the user's other
 * files. The debugger has no host or port to set: the inspector listens on 127.0.0.1 only.
 */
export function parseDev(raw: unknown, fail: (message: string) => never): DevSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"dev" must be an object with "watch" (a glob or a list of globs) and "debug" ({ "type": "node" }).');
  const e = raw as Record<string, unknown>;
  const unknown = Object.keys(e).filter((k) => !DEV_KEYS.has(k));
  if (unknown.length) fail(`"dev" has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (it takes "watch" and "debug").`);
  const list = e.watch === undefined ? [] : typeof e.watch === 'string' ? [e.watch] : e.watch;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) fail('"dev.watch" must be a glob or a list of globs, relative to the workspace folder (for example "build/**/*.js").');
  const watch = list as string[];
  for (const pattern of watch) {
    const why = outsideWhy(pattern);
    if (why) fail(`"dev.watch" pattern "${pattern}" ${why}: patterns are relative to the workspace folder and stay inside it (for example "build/**/*.js").`);
  }
  return { watch, ...(e.debug !== undefined && { debug: parseDebug(e.debug, fail) }) };
}

function parseDebug(raw: unknown, fail: (message: string) => never): { type: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof (raw as { type?: unknown }).type !== 'string') return fail('"dev.debug" must be { "type": "node" }.');
  const e = raw as Record<string, unknown>;
  const unknown = Object.keys(e).filter((k) => !DEBUG_KEYS.has(k));
  // A host or port would let a file choose where the inspector listens: it is always 127.0.0.1 at a free port.
  if (unknown.length) fail(`"dev.debug" has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}: it takes only "type" (the inspector always listens on 127.0.0.1 at a free port).`);
  return { type: e.type as string };
}

/** Why a pattern would reach outside the workspace folder, or undefined. */
function outsideWhy(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'is empty';
  if (/\0/.test(pattern)) return 'has a NUL character';
  if (/^[/\\]/.test(pattern) || /^[A-Za-z]:/.test(pattern)) return 'is an absolute path';
  if (/^~/.test(pattern)) return 'starts with "~"';
  if (pattern.split(/[/\\]/).includes('..')) return 'has a ".." segment';
  return undefined;
}
