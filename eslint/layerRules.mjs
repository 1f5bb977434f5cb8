// Two lint rules of our own for how src/ fits together (ARCHITECTURE.md "Layers"):
//   layers    a file imports only what its layer may (type imports count too)
//   no-cycle  no file reaches itself through runtime imports
// eslint-plugin-import-x does both, but its resolver's platform binaries are not all on the
// registry this project installs from, so `npm ci` cannot install it; these read relative imports
// as text, which is all src/ uses.
import fs from 'node:fs';
import path from 'node:path';

/** `import ... from './x'`, `export ... from './x'`; group 1 is `type ` for a type-only one, group 2 the specifier. */
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

/**
 * The .ts file a relative specifier names, or undefined.
 * @param {string} from @param {string} specifier
 */
function resolveTs(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file));
}

/**
 * The relative imports of a file: each resolved file, and whether the import is for types only.
 * @param {string} file @param {string} [text]
 * @returns {{ file: string, typeOnly: boolean }[]}
 */
function importsOf(file, text = fs.readFileSync(file, 'utf8')) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = resolveTs(file, match[2]);
    if (target) found.push({ file: target, typeOnly: match[1] !== undefined });
  }
  return found;
}

/** Each file's runtime imports, read once per version of the file. @type {Map<string, { mtimeMs: number, imports: string[] }>} */
const runtimeCache = new Map();

/** @param {string} file */
function runtimeImports(file) {
  const { mtimeMs } = fs.statSync(file);
  let cached = runtimeCache.get(file);
  if (cached?.mtimeMs !== mtimeMs) {
    cached = { mtimeMs, imports: importsOf(file).filter((i) => !i.typeOnly).map((i) => i.file) };
    runtimeCache.set(file, cached);
  }
  return cached.imports;
}

/**
 * The shortest runtime import path from `start` back to itself, or undefined. `start` is read
 * from `text` (the editor's version); the others from disk.
 * @param {string} start @param {string} text
 */
function cycleThrough(start, text) {
  const own = importsOf(start, text).filter((i) => !i.typeOnly).map((i) => i.file);
  const runtime = (/** @type {string} */ file) => (file === start ? own : runtimeImports(file));
  /** @type {Map<string, string>} */
  const cameFrom = new Map();
  const queue = [...runtime(start)];
  for (const next of queue) cameFrom.set(next, start);
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (file === start) {
      const chain = [start];
      for (let at = /** @type {string} */ (cameFrom.get(start)); at !== start; at = /** @type {string} */ (cameFrom.get(at))) chain.unshift(at);
      return [start, ...chain.slice(0, -1), start];
    }
    for (const next of runtime(file)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/**
 * A file in folder `target` (only directly in it with `direct`) may not import from the `from`
 * folders; folders relative to `root`.
 * @typedef {{ target: string, direct?: boolean, from: string[], message: string }} Zone
 */

/**
 * Every subfolder of `folder` (relative to `root`) must be one of `children`: a folder no zone names
 * would import anything unchecked. `message` names where to add it.
 * @typedef {{ folder: string, children: string[], filesInFolders?: boolean, message: string }} Layered
 */

/**
 * The text being linted (ESLint types it for any language; ours is JavaScript/TypeScript text).
 * @param {{ sourceCode: unknown }} context
 */
const sourceText = (context) => /** @type {{ text: string }} */ (/** @type {unknown} */ (context.sourceCode)).text;

/** @type {import('eslint').ESLint.Plugin} */
export const layerRules = {
  rules: {
    layers: {
      meta: { type: 'problem', schema: [{ type: 'object', properties: { root: { type: 'string' }, zones: { type: 'array' }, layered: { type: 'array' } } }] },
      create(context) {
        const { root, zones, layered = [] } = /** @type {{ root: string, zones: Zone[], layered?: Layered[] }} */ (context.options[0]);
        const inside = (/** @type {string} */ file, /** @type {string} */ folder) => {
          const relative = path.relative(path.resolve(root, folder), file);
          return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
        };
        const file = context.filename;
        const unlayered = layered.map((l) => {
          const [child, ...rest] = path.relative(path.resolve(root, l.folder), file).split(path.sep);
          if (!inside(file, l.folder)) return undefined;
          if (rest.length === 0) return l.filesInFolders ? `${l.folder}/${child} stands outside every folder of ${l.folder}: ${l.message}` : undefined;
          return l.children.includes(child) ? undefined : `${l.folder}/${child} is in no layer: ${l.message}`;
        }).filter((m) => m !== undefined);
        const mine = zones.filter((zone) => (zone.direct ? path.dirname(file) === path.resolve(root, zone.target) : inside(file, zone.target)));
        if (mine.length === 0 && unlayered.length === 0) return {};
        return {
          Program(node) {
            for (const message of unlayered) context.report({ node, message });
            for (const imported of importsOf(file, sourceText(context))) {
              const zone = mine.find((z) => z.from.some((folder) => inside(imported.file, folder)) && !inside(imported.file, z.target));
              if (zone) context.report({ node, message: `${path.relative(root, imported.file)}: ${zone.message}` });
            }
          },
        };
      },
    },
    'no-cycle': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        return {
          Program(node) {
            const cycle = cycleThrough(context.filename, sourceText(context));
            if (cycle) context.report({ node, message: `import cycle: ${cycle.map((f) => path.basename(f)).join(' -> ')}` });
          },
        };
      },
    },
  },
};
