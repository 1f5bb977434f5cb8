// Shared by the Tools view suites: a pool of our own with real launches, and helpers to read tree items.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers, type ParsedServers } from '../../src/core/config/serverConfig';
import { silentLog } from '../../src/core/serverLog';
import { RestartPolicy } from '../../src/core/connection/restartPolicy';
import { ServerPool } from '../../src/core/connection/serverPool';
import type { ResolvedLaunch } from '../../src/core/config/launch';
import type { GrantStore } from '../../src/core/policy/grants';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { ToolTreeProvider } from '../../src/vscode/tree/toolTree';
import * as treeLater from '../../src/vscode/tree/later';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';

export const ROOT = path.resolve(__dirname, '../../..');
export const DEMO = path.join(ROOT, 'dist/demo-server.js');
export const FIXTURES = path.join(ROOT, 'test/fixtures/servers');

/** The demo server run by the extension host's own Node (Electron on desktop, hence the variable). */
export const demoEntry = { command: process.execPath, args: [DEMO], env: { ELECTRON_RUN_AS_NODE: '1' } };

/** "trash charts.red": a ThemeIcon's id and color. */
export const iconOf = (item: vscode.TreeItem) => {
  const icon = item.iconPath as vscode.ThemeIcon;
  return icon.color ? `${icon.id} ${(icon.color as vscode.ThemeColor).id}` : icon.id;
};

/** Markdown as a person reads it: escapes and &nbsp; undone. */
export const plain = (md: unknown) => (md as vscode.MarkdownString).value.replace(/\\([\\`*_{}[\]()#+\-.!|~<>&])/g, '$1').replace(/&nbsp;/g, ' ');

/** A pool of our own with real launches; `cache` gives servers a last-known tool list; `hang` never finishes resolving. */
export function makePool(options: { cache?: Record<string, Tool[]>; hang?: Set<string>; restartDelayMs?: number; grants?: GrantStore; approveAll?: boolean } = {}) {
  const validator = new SchemaValidator();
  const pool = new ServerPool((name) => ({
    log: silentLog,
    validator,
    clientVersion: 'test',
    resolveLaunch: (def) => (options.hang?.has(name) ? new Promise<ResolvedLaunch>(() => undefined) : Promise.resolve(resolveLaunch(def, { workspaceFolders: [], env: process.env }))),
    toolCache: { load: () => options.cache?.[name], save: () => undefined },
    restartPolicy: new RestartPolicy([options.restartDelayMs ?? 60_000]),
  }));
  const approveAll = () => options.approveAll ?? false;
  const tree = new ToolTreeProvider(pool, () => ({ tree: treeLater }), options.grants ? { approveAll, grants: options.grants, launchOf: (s) => pool.launchOf(s) } : { approveAll });
  const rows = (node?: TreeNode) => tree.getChildren(node).map((n) => ({ node: n, item: tree.getTreeItem(n) }));
  const server = (name: string) => rows().find((r) => r.node.kind === 'server' && r.node.server === name)!;
  return {
    pool,
    tree,
    rows,
    server,
    apply: (servers: Record<string, unknown>, source: 'user' | 'workspace' = 'user', extra: ParsedServers['errors'] = []) => {
      const parsed = parseServers(servers, source);
      pool.apply({ servers: parsed.servers, errors: [...parsed.errors, ...extra] }, { autoStart: false });
    },
    async close() {
      tree.dispose();
      await pool.stopAll();
      pool.dispose();
    },
  };
}
export type Harness = ReturnType<typeof makePool>;
