// Bundles the extension, the CLI and the demo server into dist/ (CommonJS, Node).
// usage: node esbuild.mjs [--production] [--watch] [--outdir DIR] [--analyze]
//
// The extension is split (ARCHITECTURE.md "Limits"): dist/extension.js is what activation loads (the VS Code
// adapters, tree, commands, config, the core's own code); dist/core.js holds the heavy packages
// (the MCP SDK client with zod, ajv), loaded by the first server start or schema check, and
// dist/jsonc.js the JSONC parser, loaded when there is an mcp.json to read or arguments to edit.
// In the activation bundle each of these packages is a generated facade whose exports reach the
// real ones on first use (src/lazyExport.ts), so no source file has to know about the split.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdirArg = process.argv.indexOf('--outdir');
const outdir = path.resolve(outdirArg === -1 ? 'dist' : process.argv[outdirArg + 1]);
const require = createRequire(import.meta.url);

/**
 * What dist/extension.js loads only on first use, by the file that holds it: packages, and our
 * own modules that import nothing of ours (a module with imports would get a second copy of
 * them, and `instanceof` across the copies would fail; the build refuses it).
 */
const LAZY_CHUNKS = {
  'core.js': [
    '@modelcontextprotocol/client', 'ajv', 'ajv/dist/2019', 'ajv/dist/2020', 'ajv-formats',
    'src/core/transport/offThreadJson.ts', 'src/core/transport/lineFramer.ts', 'src/core/transport/processTree.ts',
  ],
  'jsonc.js': ['jsonc-parser'],
};
const LAZY_PACKAGES = Object.values(LAZY_CHUNKS).flat();
const isOwnModule = (key) => key.startsWith('src/');
const chunkOf = (pkg) => Object.keys(LAZY_CHUNKS).find((chunk) => LAZY_CHUNKS[chunk].includes(pkg));
/** Inputs that must never reach the activation bundle (the lazy packages and what they pull in). */
const NOT_AT_ACTIVATION = /node_modules\/(@modelcontextprotocol|ajv|ajv-formats|zod|fast-uri|fast-deep-equal|json-schema-traverse|jsonc-parser)\//;
/** The issue's budget for the code loaded at activation, checked on the production build. */
const ACTIVATION_BUDGET_BYTES = 150 * 1024;

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: production ? 'linked' : 'inline',
  sourcesContent: !production,
  logLevel: 'warning',
  alias: {
    '@modelcontextprotocol/client/_shims': path.resolve('src/shims/sdkShims.ts'),
    // jsonc-parser's UMD "main" hides its requires from bundlers (Cannot find module './impl/format'); its ESM build bundles.
    'jsonc-parser': path.resolve('node_modules/jsonc-parser/lib/esm/main.js'),
  },
};

/** A value the facade can hold as a literal: a primitive, or a flat array or object of primitives (constants, error-code enums). */
function isPlainData(value) {
  const primitive = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (primitive(value)) return true;
  if (typeof value !== 'object' || (Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value))) return false;
  return Object.values(value).every(primitive) && JSON.stringify(value).length < 4096;
}

/** The exports of one of our own lazy modules, read by running it once (it imports nothing of ours). */
function ownModuleExports(key) {
  const built = esbuild.buildSync({ entryPoints: [key], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, logLevel: 'silent' });
  const ours = Object.keys(built.metafile.inputs).filter((input) => input !== key && !input.includes('node_modules/'));
  if (ours.length > 0) throw new Error(`${key} cannot load lazily: it imports ${ours.join(', ')} (a second copy of those would break instanceof). Take it out of LAZY_CHUNKS.`);
  const module = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}

/** The facade of one lazy package or module: its exports, each reaching its chunk on first use. */
function facadeSource(pkg) {
  const real = isOwnModule(pkg) ? ownModuleExports(pkg) : require(pkg);
  const helper = JSON.stringify(path.resolve('src/lazyExport.ts'));
  const lines = [`import { lazyFunction, lazyObject } from ${helper};`, `const load = () => require('./${chunkOf(pkg)}');`];
  for (const name of Object.keys(real)) {
    if (name === '__esModule') continue;
    const value = real[name];
    const declare = name === 'default' ? 'export default' : `export const ${name} =`;
    const args = `load, ${JSON.stringify(pkg)}, ${JSON.stringify(name)}`;
    if (typeof value === 'function') lines.push(`${declare} /* @__PURE__ */ lazyFunction(${args});`);
    else if (isPlainData(value)) lines.push(`${declare} ${JSON.stringify(value) ?? 'undefined'};`);
    else lines.push(`${declare} /* @__PURE__ */ lazyObject(${args});`);
  }
  return lines.join('\n');
}

const lazyPackages = {
  name: 'lazy-packages',
  setup(build) {
    const escaped = LAZY_PACKAGES.filter((p) => !isOwnModule(p)).map((p) => p.replace(/[/.@-]/g, (c) => `\\${c}`));
    build.onResolve({ filter: new RegExp(`^(${escaped.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'lazy-package' }));
    // our own lazy modules, imported by relative path: matched by where they resolve to
    const own = new Set(LAZY_PACKAGES.filter(isOwnModule));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.namespace !== 'file') return undefined;
      const key = path.relative(process.cwd(), path.resolve(args.resolveDir, `${args.path}.ts`)).split(path.sep).join('/');
      return own.has(key) ? { path: key, namespace: 'lazy-package' } : undefined;
    });
    build.onResolve({ filter: /^\.\/[\w-]+\.js$/, namespace: 'lazy-package' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => ({ contents: facadeSource(args.path), loader: 'js', resolveDir: path.resolve('src') }));
  },
};

/**
 * The entry of one lazy chunk (dist/core.js, dist/jsonc.js): exactly the exports the activation
 * bundle kept (read from its output, where each surviving facade export names its package and
 * export), imported by name so ESM packages are tree-shaken as before the split.
 */
function chunkEntrySource(packages, extensionCode) {
  if (extensionCode === undefined) {
    // watch mode: every export, since the activation bundle may start using more while it runs
    const namespaces = packages.map((p, i) => `import * as p${i} from ${JSON.stringify(isOwnModule(p) ? `./${p}` : p)};`);
    return `${namespaces.join('\n')}\nexport const packages = { ${packages.map((p, i) => `${JSON.stringify(p)}: p${i}`).join(', ')} };\n`;
  }
  const used = new Map(packages.map((p) => [p, new Set()]));
  for (const [, pkg, name] of extensionCode.matchAll(/\(\s*[\w$]+\s*,\s*"([^"]+)"\s*,\s*"([\w$]+)"\s*\)/g)) used.get(pkg)?.add(name);
  const lines = [];
  const entries = [];
  [...used].forEach(([pkg, names], i) => {
    const specifiers = [...names].map((n) => `${n === 'default' ? 'default' : n} as p${i}_${n}`);
    const from = isOwnModule(pkg) ? `./${pkg}` : pkg;
    if (specifiers.length) lines.push(`import { ${specifiers.join(', ')} } from ${JSON.stringify(from)};`);
    entries.push(`  ${JSON.stringify(pkg)}: { ${[...names].map((n) => `${JSON.stringify(n)}: p${i}_${n}`).join(', ')} },`);
  });
  return `${lines.join('\n')}\nexport const packages = {\n${entries.join('\n')}\n};\n`;
}

const extensionBuild = { ...common, entryPoints: ['src/extension.ts'], outfile: path.join(outdir, 'extension.js'), external: ['vscode'], plugins: [lazyPackages], metafile: true };
const chunkBuilds = (extensionCode) => Object.entries(LAZY_CHUNKS).map(([chunk, packages]) => ({
  ...common,
  stdin: { contents: chunkEntrySource(packages, extensionCode), resolveDir: path.resolve('.'), sourcefile: `${chunk.replace(/\.js$/, '')}-entry.js`, loader: 'js' },
  outfile: path.join(outdir, chunk),
}));
const otherBuilds = [
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: path.join(outdir, 'cli.js'), banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['demo/server.ts'], outfile: path.join(outdir, 'demo-server.js') },
];

/** Fails the build when a heavy package slipped into the activation bundle; reports its size. */
function checkActivationBundle(result) {
  const heavy = Object.keys(result.metafile.inputs).filter((input) => NOT_AT_ACTIVATION.test(input));
  if (heavy.length > 0) {
    throw new Error(`dist/extension.js must not contain the lazy packages (they load from their own files on first use); found:\n  ${heavy.slice(0, 10).join('\n  ')}\nAdd the package to LAZY_CHUNKS in esbuild.mjs.`);
  }
  const [output] = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('extension.js'));
  if (production && output && output[1].bytes > ACTIVATION_BUDGET_BYTES) {
    console.warn(`warning: dist/extension.js is ${(output[1].bytes / 1024).toFixed(0)} KB, over the ${ACTIVATION_BUDGET_BYTES / 1024} KB activation budget (ARCHITECTURE.md).`);
  }
}

if (watch) {
  for (const b of [extensionBuild, ...chunkBuilds(undefined), ...otherBuilds]) await (await esbuild.context(b)).watch();
} else {
  const [extension] = await Promise.all([
    esbuild.build(extensionBuild).then(async (result) => {
      await Promise.all(chunkBuilds(fs.readFileSync(extensionBuild.outfile, 'utf8')).map((b) => esbuild.build(b)));
      return result;
    }),
    ...otherBuilds.map((b) => esbuild.build(b)),
  ]);
  checkActivationBundle(extension);
  if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(extension.metafile));
}
