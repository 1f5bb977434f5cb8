// The core's doors (ARCHITECTURE.md "Limits"), read from the code for the build (esbuild.mjs) and
// the lint (eslint.config.mjs): each folder's loaders, src/core/<folder>/load*.ts, require its doors
// (`require('./later')`), and each door re-exports (`export { … } from './module'`) the folder's
// modules that activation must not load.
import fs from 'node:fs';
import path from 'node:path';

/** The lazy bundle that holds each door: dist/core.js, the session runtime, unless named here. */
const BUNDLE_OF = { 'connection/sessionRuntime': 'session.js', 'offers/later': 'offers.js', 'calls/later': 'calls.js', 'install/later': 'install.js', 'packages/jsonc': 'jsonc.js', 'policy/later': 'rules.js', 'auth/later': 'auth.js', 'search/later': 'search.js', 'telemetry/later': 'telemetry.js', 'gateway/later': 'gateway.js', 'elicitation/links': 'links.js', 'apps/links': 'links.js' };

/**
 * Every door of src/core under `root`: its loader, the request the loader makes, the door's file,
 * its bundle, and the modules of ours it re-exports (paths from src/core, without `.ts`).
 * @param {string} root the repository
 */
export function coreDoors(root) {
  const core = path.join(root, 'src/core');
  const loaders = (/** @type {string} */ folder) => fs.readdirSync(path.join(core, folder)).filter((f) => /^load\w*\.ts$/.test(f));
  return fs.readdirSync(core).filter((folder) => fs.statSync(path.join(core, folder)).isDirectory()).flatMap((folder) =>
    loaders(folder).flatMap((loader) =>
      [...fs.readFileSync(path.join(core, folder, loader), 'utf8').matchAll(/require\('\.\/(\w+)'\)/g)].map(([, door]) => {
        const entry = `src/core/${folder}/${door}.ts`;
        const modules = [...fs.readFileSync(path.join(root, entry), 'utf8').matchAll(/^export .* from '\.\/(\w+)';$/gm)].map(([, m]) => `${folder}/${m}`);
        return { loader: `src/core/${folder}/${loader}`, request: `./${door}`, entry, door: `${folder}/${door}`, file: BUNDLE_OF[/** @type {keyof typeof BUNDLE_OF} */ (`${folder}/${door}`)] ?? 'core.js', modules };
      }),
    ),
  );
}
