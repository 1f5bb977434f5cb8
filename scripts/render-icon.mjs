// Renders the Marketplace icon, media/icon.svg, to media/icon.png (128x128, transparent corners)
// with the Chromium the UI tests use (scripts/e2e/env.sh, through playwright-core). The PNG is
// committed: packaging needs no browser. Run it after editing the SVG:
//   node scripts/render-icon.mjs [in.svg] [out.png] [size]
// (defaults: media/icon.svg, media/icon.png, 128; the SVG is drawn at size x size CSS pixels.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './e2e/codeServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [input = 'media/icon.svg', output = 'media/icon.png', sizeArg = '128'] = process.argv.slice(2);
const size = Number(sizeArg);
if (!Number.isInteger(size) || size < 1) throw new Error(`size must be a positive integer, not ${sizeArg}`);

const svg = fs.readFileSync(path.resolve(root, input), 'utf8');
const browser = await launchBrowser();
try {
  const page = await browser.ctx.newPage();
  await page.setViewportSize({ width: size, height: size });
  // The SVG as an <img> data URL: drawn at exactly size x size, no page margin, nothing else loaded.
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(`<!DOCTYPE html><html><body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
  await page.locator('img').evaluate((img) => /** @type {HTMLImageElement} */ (img).decode());
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: size, height: size }, omitBackground: true });
  fs.writeFileSync(path.resolve(root, output), png);
  console.log(`${output}: ${size}x${size}, ${png.length} bytes`);
} finally {
  await browser.close();
}
