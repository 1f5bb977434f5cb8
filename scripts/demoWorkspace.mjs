// The folder `npm start` opens as the demo workspace. It lies outside the checkout: a server the
// user adds runs there (its working directory), and `npx` inside a checkout resolves the checkout's
// own node_modules (server-everything and the other reference servers are devDependencies), so a
// trial of `npx -y @modelcontextprotocol/server-...` would not fetch what a user gets (issue 32).
// It is kept between runs, as the profile is: the user's notes and files are still there next time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The per-user demo workspace: beside the code-server install in the per-user cache
 * ($E2E_CACHE, else $XDG_CACHE_HOME/mcp-tool-host, else ~/.cache/mcp-tool-host; as scripts/e2e/env.sh).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function defaultDemoWorkspace(env = process.env) {
  const cache = env.E2E_CACHE || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mcp-tool-host');
  return path.join(cache, 'demo-workspace');
}

/**
 * True when `dir` is `parent` or inside it.
 * @param {string} dir
 * @param {string} parent
 */
export function isInside(dir, parent) {
  const rel = path.relative(path.resolve(parent), path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Makes the demo workspace `dir` ready and returns what was done, for the user to read: created (with
 * a README), kept as it was, or moved from `oldDir` (where earlier versions kept it, inside the
 * checkout) when only the old one exists. Refuses a folder inside `checkout`.
 * @param {string} dir
 * @param {{ checkout: string, oldDir?: string }} options
 * @returns {string}
 */
export function prepareDemoWorkspace(dir, { checkout, oldDir }) {
  if (isInside(dir, checkout)) {
    throw new Error(`The demo workspace ${dir} is inside the checkout ${checkout}: npx there would run the checkout's own node_modules. Choose a folder outside it (--workspace DIR).`);
  }
  let said = `Workspace: ${dir} (kept between runs).`;
  if (!fs.existsSync(dir) && oldDir && fs.existsSync(oldDir)) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.cpSync(oldDir, dir, { recursive: true, preserveTimestamps: true });
    fs.rmSync(oldDir, { recursive: true, force: true });
    said = `Workspace: ${dir} (moved out of the checkout from ${oldDir}; kept between runs).`;
  }
  fs.mkdirSync(dir, { recursive: true });
  const readme = path.join(dir, 'README.md');
  if (!fs.existsSync(readme)) fs.writeFileSync(readme, '# MCP Tool Host demo\n\nOpen the MCP Tool Host view in the activity bar and click a tool.\n\nThis folder is outside the extension\'s checkout, so a server started here with `npx` is fetched from the registry as it would be for any user.\n');
  return said;
}
