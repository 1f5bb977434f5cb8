import * as vscode from 'vscode';
import type { CallHeader, CallSink } from '../../core/calls/ports';
import { showSummary } from '../../core/render/longText';
import { shownArguments } from '../../core/render/sanitize';
import type { SavedText } from '../../core/render/resultFolder';

const CHUNK_CHARS = 64 * 1024;
const MAX_ARGUMENT_CHARS = 4000;

export interface OutputSinkOptions {
  /** Results longer than this show their head here and are saved whole to a file. */
  readonly maxResultChars: () => number;
  /** Saves a full result, given in pieces (as much of it as the results folder's budget holds). */
  readonly saveFullResult: (callId: string, pieces: readonly string[]) => Promise<SavedText>;
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
    // As the approval prompt shows them: hidden and direction characters as escapes (a model or an interface may choose them).
    const args = shownArguments(header.args);
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

  async end(callId: string, summary: readonly string[]): Promise<void> {
    const cut = await showSummary(callId, summary, {
      cap: this._options.maxResultChars(),
      sliceChars: CHUNK_CHARS,
      append: (text) => this._channel.append(text),
      save: (pieces) => this._options.saveFullResult(callId, pieces),
    });
    if (cut) this._channel.appendLine(`[${callId}] … ${vscode.l10n.t('{0} more characters are not shown here (mcpToolHost.output.maxResultChars); {1}', cut.hidden, whereSaved(cut.saved))}`);
  }
}

/** Where the whole result went: a file, part of it in a file (the results folder's budget), or nowhere and why. */
function whereSaved(saved: SavedText): string {
  if ('leftOut' in saved) return vscode.l10n.t('they were not saved: {0}', saved.leftOut);
  if (saved.keptChars < saved.totalChars) return vscode.l10n.t('the first {0} of its {1} characters are in {2} (mcpToolHost.results.maxSize)', saved.keptChars, saved.totalChars, saved.file);
  return vscode.l10n.t('the whole result is in {0}', saved.file);
}
