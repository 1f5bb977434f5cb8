import * as vscode from 'vscode';
import type { DevHost, DevUnavailable } from '../../core/connection/devWatch';
import type { ServerLog } from '../../core/serverLog';

/**
 * Dev mode's hands in VS Code: its file watcher and its debugger. Only in a trusted workspace:
 * a restart on a file change and an inspector a local process can run code through are for the
 * author's own folder, not for a repository just opened.
 */
export function vscodeDevHost(logFor: (server: string) => ServerLog): DevHost | DevUnavailable {
  if (!vscode.workspace.isTrusted) return { unavailable: vscode.l10n.t('this workspace is not trusted (dev mode restarts and debugs servers only in a trusted workspace)') };
  const folder = () => vscode.workspace.workspaceFolders?.[0];
  return {
    folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ path: f.uri.fsPath })),
    watch: (patterns, changed) => {
      const base = folder();
      if (!base) return { dispose: () => undefined };
      const watchers = patterns.map((pattern) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern)));
      const heard = (uri: vscode.Uri) => changed(uri.fsPath);
      const subscriptions = watchers.flatMap((w) => [w.onDidChange(heard), w.onDidCreate(heard), w.onDidDelete(heard)]);
      return { dispose: () => [...subscriptions, ...watchers].forEach((d) => d.dispose()) };
    },
    attach: (server, port) => {
      // An attach configuration, made for this launch: the port is new at every start, so no launch.json entry could name it.
      const config: vscode.DebugConfiguration = { type: 'node', request: 'attach', name: vscode.l10n.t('MCP server: {0}', server), address: '127.0.0.1', port, skipFiles: ['<node_internals>/**'] };
      const failed = (why: string) => logFor(server).warn(vscode.l10n.t('Dev mode: the debugger could not attach to 127.0.0.1:{0}: {1}', port, why));
      void Promise.resolve(vscode.debug.startDebugging(folder(), config)).then(
        (started) => started || failed(vscode.l10n.t('VS Code did not start the session (is the JavaScript debugger enabled?)')),
        (err: unknown) => failed(err instanceof Error ? err.message : String(err)),
      );
    },
  };
}
