// Bundles the extension, the CLI and the demo server into dist/ (CommonJS, Node).
// usage: node esbuild.mjs [--production] [--watch] [--outdir DIR] [--analyze]
//
// Activation loads dist/extension.js only (ARCHITECTURE.md "Limits"). What it must not load sits
// behind the lazy seam: each core folder's door (src/core/<folder>/later.ts, or links.ts, jsonc.ts),
// reached through the folder's loader (load.ts, `require('./later')`). In the extension the doors
// are parts of a few lazy bundles (dist/core.js, the session runtime, holds most of them) and each
// loader's require becomes a require of its bundle; the CLI and demo bundles hold everything inline.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { coreDoors } from './eslint/lazyDoors.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outdirArg = process.argv.indexOf('--outdir');
const outdir = path.resolve(outdirArg === -1 ? 'dist' : process.argv[outdirArg + 1]);

/**
 * The core's doors (eslint/lazyDoors.mjs): each is a part of one lazy bundle. A bundle exports the
 * names of all its doors side by side, so a loader's require is a require of its bundle (the doors'
 * names are unique: the lazy seam test checks it).
 */
const CORE_DOORS = coreDoors(process.cwd());
/** The VS Code layer's lazy bundles: one door each, the whole bundle (src/vscode/lazy). */
const VSCODE_DOORS = [
  { loader: 'src/vscode/lazy/load.ts', request: './chat', entry: 'src/vscode/lazy/chat.ts', file: 'chat.js' },
  { loader: 'src/vscode/lazy/load.ts', request: './forms', entry: 'src/vscode/lazy/forms.ts', file: 'forms.js' },
];
const DOORS = [...CORE_DOORS, ...VSCODE_DOORS];
/** Each lazy bundle's entry: a door of its own, or the core's doors that it holds. */
const LAZY = [
  ...[...new Set(CORE_DOORS.map((d) => d.file))].map((file) => ({
    file,
    stdin: { contents: CORE_DOORS.filter((d) => d.file === file).map((d) => `export * from './${d.entry}';`).join('\n'), resolveDir: process.cwd(), sourcefile: `src/core/${file}`, loader: /** @type {const} */ ('ts') },
  })),
  ...VSCODE_DOORS.map(({ entry, file }) => ({ file, entryPoints: [entry] })),
];
/** Packages that must never be in dist/extension.js: the lazy ones and what they pull in. */
const NOT_AT_ACTIVATION = /node_modules\/(@anthropic-ai|@opentelemetry|@modelcontextprotocol|ajv|ajv-formats|zod|fast-uri|fast-deep-equal|json-schema-traverse|jsonc-parser|re2js|minisearch|gpt-tokenizer|tldts|tldts-core|node-forge|fflate)\//;
/** The budget for the code loaded at activation, checked on the production build. */
const ACTIVATION_BUDGET_BYTES = 150 * 1024;

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  // Linked, not inline, in development builds too: an inline map triples dist/cli.js (30 MB), and
  // every run of the CLI or the demo server (the tests start hundreds) reads and scans all of it.
  sourcemap: 'linked',
  sourcesContent: !production,
  logLevel: 'warning',
  alias: {
    '@modelcontextprotocol/client/_shims': path.resolve('src/shims/sdkShims.ts'),
    // jsonc-parser's UMD "main" hides its requires from bundlers (Cannot find module './impl/format'); its ESM build bundles.
    'jsonc-parser': path.resolve('node_modules/jsonc-parser/lib/esm/main.js'),
    // Only the parts of the bundle format that installing needs, not its CLI (src/shims/mcpbParts.mjs).
    '@anthropic-ai/mcpb': path.resolve('src/shims/mcpbParts.mjs'),
  },
};

/**
 * In every bundle but the CLI's, a loader's `require('./later')` stays a require, of the lazy
 * bundle that holds the door (dist/core.js, say); every other require is bundled as usual.
 * @type {esbuild.Plugin}
 */
const lazySeam = {
  name: 'lazy-seam',
  setup(build) {
    build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
      const door = DOORS.find((d) => d.request === args.path && path.resolve(d.loader) === args.importer);
      return door && { path: `./${door.file}`, external: true };
    });
  },
};

/**
 * The sandbox library (issue 17, src/core/transport/sandbox.ts) is ESM only and finds its helper
 * binary (apply-seccomp) next to its own file: every bundle imports it from dist/sandbox-runtime.mjs,
 * a bundle of its own built below, with vendor/seccomp copied beside it.
 * @type {esbuild.Plugin}
 */
const sandboxRuntime = {
  name: 'sandbox-runtime',
  setup(build) {
    build.onResolve({ filter: /^@anthropic-ai\/sandbox-runtime$/ }, () => ({ path: './sandbox-runtime.mjs', external: true }));
  },
};
/**
 * The CLI's entry requires its commands (`require('./commands')` in src/cli/main.ts) when one runs,
 * and before them, for `call` and `tools`, the early launch of their server (`require('./earlyLaunch')`):
 * in dist/ each is a bundle beside it, so `--help` loads none of them.
 * @type {esbuild.Plugin}
 */
const cliCommands = {
  name: 'cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(commands|earlyLaunch)$/ }, (args) => (args.importer === path.resolve('src/cli/main.ts') ? { path: args.path === './commands' ? './cli-commands.js' : './cli-launch.js', external: true } : undefined));
  },
};
/**
 * dist/cli-launch.js runs before the server of a `call` is spawned, so every byte of it delays the
 * spawn: the SDK's door (src/core/packages/later.ts: the SDK, ajv, RE2, 0.7 MB) is a stub that
 * throws there (src/shims/noSdk.cjs), and the early launch gives way to the normal order
 * when a check would need it (a rule's regex). 100 KB instead of 800 KB: 20 ms of CPU instead of 49.
 * @type {esbuild.Plugin}
 */
const withoutSdk = {
  name: 'without-sdk',
  setup(build) {
    build.onResolve({ filter: /^\.\/later$/ }, (args) => (args.importer === path.resolve('src/core/packages/load.ts') ? { path: path.resolve('src/shims/noSdk.cjs') } : undefined));
  },
};
/**
 * In dist/cli-commands.js the search door (src/core/search/later.ts: minisearch and gpt-tokenizer's
 * encoding, 2.7 MB of the 5.6 MB) stays a require, of dist/cli-search.js: only `serve` searches or
 * counts tokens, and every other command read and compiled those bytes at its start. The door shares
 * only stateless modules with the commands (render/sanitize, tokenRuns), so a copy of each is harmless.
 * @type {esbuild.Plugin}
 */
const cliSearch = {
  name: 'cli-search',
  setup(build) {
    build.onResolve({ filter: /^\.\/later$/ }, (args) => (args.importer === path.resolve('src/core/search/load.ts') ? { path: './cli-search.js', external: true } : undefined));
  },
};
/** The checks that decide a `call`'s launch, and its spawn, run while nothing else is loaded (src/cli/earlyLaunch.ts). */
const cliLaunchBuild = { ...common, entryPoints: ['src/cli/earlyLaunch.ts'], outfile: path.join(outdir, 'cli-launch.js'), plugins: [sandboxRuntime, withoutSdk], metafile: true };
/** Packages that must never be in dist/cli-launch.js (the heavy ones; the JSONC parser is small and needed). */
const NOT_BEFORE_SPAWN = /node_modules\/(@anthropic-ai|@opentelemetry|@modelcontextprotocol|ajv|ajv-formats|zod|jose|re2js|minisearch|gpt-tokenizer|tldts|node-forge|fflate)\//;

/** @type {esbuild.BuildOptions} */
const sandboxBuild = {
  ...common,
  format: 'esm',
  entryPoints: ['node_modules/@anthropic-ai/sandbox-runtime/dist/index.js'],
  outfile: path.join(outdir, 'sandbox-runtime.mjs'),
  // Its CommonJS dependencies require Node's modules: give the ESM bundle a `require`.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Windows only, optional, never installed here.
  external: ['@microsoft/mxc-sdk'],
};
/** The library's seccomp helper, where its bundle looks first (`vendor/seccomp/<arch>/` beside it). */
function copySeccompHelper() {
  const from = path.resolve('node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp');
  for (const arch of ['x64', 'arm64']) {
    fs.mkdirSync(path.join(outdir, 'vendor/seccomp', arch), { recursive: true });
    fs.copyFileSync(path.join(from, arch, 'apply-seccomp'), path.join(outdir, 'vendor/seccomp', arch, 'apply-seccomp'));
  }
}

/** @type {esbuild.BuildOptions} */
const extensionBuild = { ...common, entryPoints: ['src/extension.ts'], outfile: path.join(outdir, 'extension.js'), external: ['vscode'], plugins: [lazySeam, sandboxRuntime], metafile: true };
/** @type {esbuild.BuildOptions[]} */
// The seam applies inside lazy bundles too: chat.js reaches the SDK through dist/core.js, never a copy of its own.
const lazyBuilds = LAZY.map(({ file, ...entry }) => ({ ...common, ...entry, outfile: path.join(outdir, file), external: ['vscode'], plugins: [lazySeam, sandboxRuntime], metafile: true }));
/** @type {esbuild.BuildOptions[]} the CLI (its entry and its commands) and the demo server, everything inline */
const otherBuilds = [
  // The keychain library is native (a .node file per platform): required from node_modules beside the CLI, never bundled.
  // dist/cli.js parses the command line and prints the help; a command loads dist/cli-commands.js (src/cli/main.ts).
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: path.join(outdir, 'cli.js'), banner: { js: '#!/usr/bin/env node' }, plugins: [cliCommands] },
  { ...common, entryPoints: ['src/cli/commands.ts'], outfile: path.join(outdir, 'cli-commands.js'), plugins: [sandboxRuntime, cliSearch], external: ['@napi-rs/keyring'] },
  { ...common, entryPoints: ['src/core/search/later.ts'], outfile: path.join(outdir, 'cli-search.js') },
  sandboxBuild,
  { ...common, entryPoints: ['demo/server.ts'], outfile: path.join(outdir, 'demo-server.js') },
  // Preloaded into sandboxed Node servers (issue 32): it must stand alone, beside core.js and cli.js that name it.
  { ...common, entryPoints: ['src/core/transport/proxyPreload.ts'], outfile: path.join(outdir, 'proxyPreload.js'), sourcemap: false },
  // A server's shutdown after the CLI has exited (StdioTransport's stopDetached): started beside cli.js, it must stand alone and start fast.
  { ...common, entryPoints: ['src/core/transport/stopWatcher.ts'], outfile: path.join(outdir, 'stopWatcher.js'), sourcemap: false },
];

/**
 * Whether a module of ours may be copied into two bundles: one without classes (a second copy of
 * a class breaks `instanceof`) and without module-level `let` (a second copy splits its state).
 * @param {string} file
 */
function stateless(file) {
  const source = fs.readFileSync(file, 'utf8');
  return !/^\s*(export\s+)?(default\s+)?(abstract\s+)?class\s/m.test(source) && !/^(export\s+)?let\s/m.test(source);
}

/**
 * Fails the build when a heavy package reached dist/extension.js, or a module of ours that is not
 * stateless is in both it and a lazy bundle; warns over the activation budget.
 * @param {esbuild.Metafile} extension
 * @param {esbuild.Metafile[]} lazyBundles
 */
function checkBundles(extension, lazyBundles) {
  const heavy = Object.keys(extension.inputs).filter((input) => NOT_AT_ACTIVATION.test(input));
  if (heavy.length > 0) {
    throw new Error(`dist/extension.js must not contain the heavy packages (reach them through a folder's door: loadSdk(), loadJsonc() of src/core/packages/load.ts); found:\n  ${heavy.slice(0, 10).join('\n  ')}`);
  }
  // dist/chat.js neither: a second copy of the SDK would be a second set of classes (and 600 KB).
  const chat = lazyBundles.find((m) => Object.keys(m.outputs).some((file) => file.endsWith('chat.js')));
  const heavyInChat = Object.keys(chat?.inputs ?? {}).filter((input) => NOT_AT_ACTIVATION.test(input));
  if (heavyInChat.length > 0) throw new Error(`dist/chat.js must reach the heavy packages through dist/core.js; found:\n  ${heavyInChat.slice(0, 10).join('\n  ')}`);
  const twice = lazyBundles.flatMap((m) => Object.keys(m.inputs)).filter((input) => input in extension.inputs && !(input.startsWith('src/') && stateless(input)));
  if (twice.length > 0) throw new Error(`these files are in dist/extension.js and in a lazy bundle, and hold a class or module state (ARCHITECTURE.md "Limits"):\n  ${twice.join('\n  ')}`);
  const bytes = Object.entries(extension.outputs).find(([file]) => file.endsWith('extension.js'))?.[1].bytes ?? 0;
  if (production && bytes > ACTIVATION_BUDGET_BYTES) {
    console.warn(`warning: dist/extension.js is ${(bytes / 1024).toFixed(0)} KB, over the ${ACTIVATION_BUDGET_BYTES / 1024} KB activation budget (ARCHITECTURE.md "Limits").`);
  }
}

if (watch) {
  copySeccompHelper();
  for (const b of [extensionBuild, ...lazyBuilds, cliLaunchBuild, ...otherBuilds]) await (await esbuild.context(b)).watch();
} else {
  copySeccompHelper();
  const [extension, lazy, cliLaunch] = await Promise.all([esbuild.build(extensionBuild), Promise.all(lazyBuilds.map((b) => esbuild.build(b))), esbuild.build(cliLaunchBuild), ...otherBuilds.map((b) => esbuild.build(b))]);
  /** The metafile each of these builds asks for. */
  const metafile = (/** @type {esbuild.BuildResult} */ r) => /** @type {esbuild.Metafile} */ (r.metafile);
  checkBundles(metafile(extension), lazy.map(metafile));
  const heavyEarly = Object.keys(metafile(cliLaunch).inputs).filter((input) => NOT_BEFORE_SPAWN.test(input));
  if (heavyEarly.length > 0) throw new Error(`dist/cli-launch.js runs before a call's server is spawned and must stay small; found:\n  ${heavyEarly.slice(0, 10).join('\n  ')}`);
  if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(metafile(extension)));
}
