import * as vscode from 'vscode';
import type { CallHeader, CallSink } from '../core/calls/ports';

/** Streams each call into the "MCP Tool Host" output channel as it happens. */
export class OutputChannelSink implements CallSink {
  constructor(private readonly _channel: vscode.OutputChannel) {}

  begin(header: CallHeader): void {
    this._channel.show(true);
    this._channel.appendLine('');
    this._channel.appendLine(`▶ ${header.server} / ${header.tool}  [${header.origin}]  ${header.startedAt.toISOString()}  call ${header.callId}`);
    this._channel.appendLine(`[${header.callId}] arguments: ${JSON.stringify(header.args)}`);
  }

  line(callId: string, text: string): void {
    this._channel.appendLine(`[${callId}] ${text}`);
  }

  progress(callId: string, p: { progress: number; total?: number; message?: string }): void {
    const fraction = p.total ? ` (${Math.round((p.progress / p.total) * 100)}%)` : '';
    this._channel.appendLine(`[${callId}] progress ${p.progress}${p.total ? `/${p.total}` : ''}${fraction}${p.message ? `: ${p.message}` : ''}`);
  }

  end(callId: string, summary: string): void {
    this._channel.appendLine(`[${callId}] ${summary}`);
  }
}
