import * as vscode from 'vscode';
import type { Disposable } from '../../core/events';
import type { ServerLog } from '../../core/serverLog';
import { sanitizeLine } from '../../core/render/sanitize';

/** One LogOutputChannel per server ("MCP Tool Host: name"), created on first use. */
export class ServerLogs implements Disposable {
  private readonly _channels = new Map<string, vscode.LogOutputChannel>();

  logFor(server: string): ServerLog {
    const channel = () => this.channel(server);
    return {
      info: (m) => channel().info(sanitizeLine(m)),
      warn: (m) => channel().warn(sanitizeLine(m)),
      error: (m) => channel().error(sanitizeLine(m)),
      // stderr is not an error signal (the spec: servers may log anything there); levels come from MCP log messages.
      stderr: (line) => channel().info(`[stderr] ${sanitizeLine(line)}`),
    };
  }

  channel(server: string): vscode.LogOutputChannel {
    let ch = this._channels.get(server);
    if (!ch) {
      ch = vscode.window.createOutputChannel(`MCP Tool Host: ${server}`, { log: true });
      this._channels.set(server, ch);
    }
    return ch;
  }

  dispose(): void {
    for (const ch of this._channels.values()) ch.dispose();
    this._channels.clear();
  }
}
