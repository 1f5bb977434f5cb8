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
      info: (m) => channel().info(sanitizeLine(withoutLevel(m, 'info'))),
      warn: (m) => channel().warn(sanitizeLine(withoutLevel(m, 'warning'))),
      error: (m) => channel().error(sanitizeLine(withoutLevel(m, 'error'))),
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

/**
 * A server's log message comes as "[level] text"; the channel writes its own "[level]" before each
 * line, so the same word twice ("[error] [error] ...") is said once. Other levels (notice,
 * critical, ...) keep theirs: the channel has no word for them.
 */
function withoutLevel(message: string, channelLevel: string): string {
  const prefix = `[${channelLevel}] `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}
