import * as vscode from 'vscode';
import type { CallHeader, CallSink } from '../core/calls/ports';

const CHUNK_CHARS = 64 * 1024;
const MAX_ARGUMENT_CHARS = 4000;

export interface OutputSinkOptions {
  /** Results longer than this show their head here and are saved whole to a file. */
  readonly maxResultChars: () => number;
  /** Saves a full result; returns its path. */
  readonly saveFullResult: (callId: string, text: string) => Promise<string>;
}

/**
 * Streams each call into the "MCP Tool Host" output channel as it happens. Large results are
 * written in chunks (the extension host stays responsive), and past the cap the channel shows
 * the head and where the whole result was saved: nothing is cut silently.
 */
export class OutputChannelSink implements CallSink {
  constructor(private readonly _channel: vscode.OutputChannel, private readonly _options: OutputSinkOptions) {}

  begin(header: CallHeader): void {
    this._channel.show(true);
    this._channel.appendLine('');
    this._channel.appendLine(`▶ ${header.server} / ${header.tool}  [${header.origin}]  ${header.startedAt.toISOString()}  ${vscode.l10n.t('call {0}', header.callId)}`);
    const args = JSON.stringify(header.args);
    const shown = args.length > MAX_ARGUMENT_CHARS ? `${args.slice(0, MAX_ARGUMENT_CHARS)}… ${vscode.l10n.t('({0} characters in all; the approval prompt shows them whole)', args.length)}` : args;
    this._channel.appendLine(`[${header.callId}] ${vscode.l10n.t('arguments: {0}', shown)}`);
  }

  line(callId: string, text: string): void {
    this._channel.appendLine(`[${callId}] ${text}`);
  }

  progress(callId: string, p: { progress: number; total?: number; message?: string }): void {
    const fraction = p.total ? ` (${Math.round((p.progress / p.total) * 100)}%)` : '';
    this._channel.appendLine(`[${callId}] ${vscode.l10n.t('progress {0}', `${p.progress}${p.total ? `/${p.total}` : ''}`)}${fraction}${p.message ? `: ${p.message}` : ''}`);
  }

  async end(callId: string, summary: string): Promise<void> {
    const cap = this._options.maxResultChars();
    if (summary.length <= cap) return this._write(`[${callId}] ${summary}\n`);
    const file = await this._options.saveFullResult(callId, summary);
    await this._write(`[${callId}] ${summary.slice(0, cap)}\n`);
    this._channel.appendLine(`[${callId}] … ${vscode.l10n.t('{0} more characters are not shown here (mcpToolHost.output.maxResultChars); the whole result is in {1}', summary.length - cap, file)}`);
  }

  /** Appends in chunks, yielding between them so a 50 MiB result never blocks the host. */
  private async _write(text: string): Promise<void> {
    for (let at = 0; at < text.length; at += CHUNK_CHARS) {
      this._channel.append(text.slice(at, at + CHUNK_CHARS));
      if (at + CHUNK_CHARS < text.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
