import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerDefinition } from './serverConfig';
import { substitute } from './variables';

/** One root a server is told about (`roots/list`). */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** What a server is told of the user's folders, and why (shown in its log and tooltip). */
export type RootsOffer = { readonly kind: 'offered'; readonly roots: () => Root[]; readonly why: string } | { readonly kind: 'none'; readonly why: string };

/**
 * The roots a server gets. `roots` in its entry decides: "workspace" (the open folders, kept up
 * to date), "none" (no roots capability), or a list of folders. Without it, the open folders,
 * except for a stdio server whose arguments name a folder that exists: servers such as
 * server-filesystem replace the folders they were started with by the roots they receive, so the
 * folder the user configured would be silently swapped for the workspace's.
 */
export function rootsOffer(def: ServerDefinition, folders: () => readonly { name: string; path: string; uri?: string }[]): RootsOffer {
  const workspace = (): Root[] => folders().map((f) => ({ uri: f.uri ?? pathToFileURL(f.path).href, name: f.name }));
  const setting = def.roots;
  if (setting === 'none') return { kind: 'none', why: 'not offered ("roots": "none")' };
  if (Array.isArray(setting)) {
    const list = (): Root[] => setting.map((p) => path.resolve(folders()[0]?.path ?? '.', substitute(p, { workspaceFolders: folders(), env: process.env }))).map((p) => ({ uri: pathToFileURL(p).href, name: path.basename(p) }));
    return { kind: 'offered', roots: list, why: `the folders in "roots": ${setting.join(', ')}` };
  }
  if (setting === 'workspace') return { kind: 'offered', roots: workspace, why: 'the workspace folders ("roots": "workspace")' };
  const named = def.spec.type === 'stdio' ? def.spec.args.filter((a) => path.isAbsolute(a) && isFolder(a)) : [];
  if (named.length > 0) return { kind: 'none', why: `not offered: the launch names ${named.join(', ')}, which the workspace folders would replace (set "roots" to change)` };
  return { kind: 'offered', roots: workspace, why: 'the workspace folders' };
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
