import * as vscode from 'vscode';
import { loadConnection } from '../../core/connection/load';
import type { DebugAttachment, DevHost, DevUnavailable } from '../../core/connection/devWatch';
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
      // Two ears: VS Code's watcher, and Node's in this process (VS Code's on Linux misses saves in a folder
      // made with its parent, as a build makes them). DevWatch hears one save once.
      const own = new (loadConnection().DevFolderWatch)(base.uri.fsPath, patterns, changed);
      const watchers = patterns.map((pattern) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern)));
      const heard = (uri: vscode.Uri) => {
        own.rearm(); // a watched folder made since (the first build) is watched from now on
        changed(uri.fsPath);
      };
      const subscriptions = watchers.flatMap((w) => [w.onDidChange(heard), w.onDidCreate(heard), w.onDidDelete(heard)]);
      return { dispose: () => [own, ...subscriptions, ...watchers].forEach((d) => d.dispose()) };
    },
    attach: (server, port) => attachDebugger(server, port, folder(), logFor(server)),
  };
}

/**
 * Starts an attach session on the server's inspector; its detach ends that session (once it started,
 * if it had not yet). The session is found by its configuration: startDebugging does not return it.
 */
function attachDebugger(server: string, port: number, folder: vscode.WorkspaceFolder | undefined, log: ServerLog): DebugAttachment {
  // An attach configuration, made for this launch: the port is new at every start, so no launch.json entry could name it.
  // Its name has the port: VS Code asks before it starts a session named as one still ending (the last launch's).
  const config: vscode.DebugConfiguration = { type: 'node', request: 'attach', name: vscode.l10n.t('MCP server: {0} (127.0.0.1:{1})', server, port), address: '127.0.0.1', port, skipFiles: ['<node_internals>/**'] };
  const failed = (why: string) => log.warn(vscode.l10n.t('Dev mode: the debugger could not attach to 127.0.0.1:{0}: {1}', port, why));
  let session: vscode.DebugSession | undefined;
  let ended: (() => void) | undefined;
  const gone = new Promise<void>((resolve) => (ended = resolve));
  const ours = (s: vscode.DebugSession) => s.configuration.request === 'attach' && s.configuration.port === port && s.name === config.name;
  const listeners = [
    vscode.debug.onDidStartDebugSession((s) => ours(s) && (session ??= s)),
    vscode.debug.onDidTerminateDebugSession((s) => s === session && ended?.()),
  ];
  const started = Promise.resolve(vscode.debug.startDebugging(folder, config)).then(
    (ok) => ok || failed(vscode.l10n.t('VS Code did not start the session (is the JavaScript debugger enabled?)')),
    (err: unknown) => failed(err instanceof Error ? err.message : String(err)),
  );
  return {
    detach: async () => {
      await started;
      const done = () => listeners.forEach((l) => l.dispose());
      if (!session) return done();
      void gone.then(done);
      await Promise.all([Promise.resolve(vscode.debug.stopDebugging(session)).then(undefined, () => undefined), gone]);
    },
  };
}
