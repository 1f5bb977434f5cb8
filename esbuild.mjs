// Bundles the extension, the CLI and the demo server into dist/ (CommonJS, Node).
// usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['demo/server.ts'], outfile: 'dist/demo-server.js' },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
