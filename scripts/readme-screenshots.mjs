// `npm run screenshots`: copies the pictures of README.md and docs/*.md from the last UI run (npm test or
// npm run test:e2e, which write test-results/screenshots) into docs/, so the documents show the
// product as the UI tests last saw it. Fails, naming it, when a picture is missing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shots = path.join(root, 'test-results', 'screenshots');

/** docs/ file <- the UI test's screenshot (its name without the step number). */
/** @type {Record<string, string>} */
const PICTURES = {
  'screenshot-tree-and-output.png': 'ui-output-read-note',
  'screenshot-approval.png': 'ui-approval-quickpick',
  'screenshot-launch-prompt.png': 'ui-workspace-server-launch-prompt',
};

const taken = fs.existsSync(shots) ? fs.readdirSync(shots) : [];
/** @type {string[]} */
const missing = [];
for (const [doc, shot] of Object.entries(PICTURES)) {
  const [prefix, ...rest] = shot.split('-');
  const file = taken.find((f) => new RegExp(`^${prefix}-\\d+-${rest.join('-')}\\.png$`).test(f));
  if (!file) {
    missing.push(shot);
    continue;
  }
  fs.copyFileSync(path.join(shots, file), path.join(root, 'docs', doc));
  console.log(`docs/${doc} <- test-results/screenshots/${file}`);
}
if (missing.length) {
  console.error(`not in test-results/screenshots (run the UI tests first: npm run test:e2e): ${missing.join(', ')}`);
  process.exit(1);
}
