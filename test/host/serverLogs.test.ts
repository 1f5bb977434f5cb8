import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ServerLogs } from '../../src/vscode/shared/serverLogs';

/** ServerLogs writing into a channel that records each line with its level. */
class RecordedLogs extends ServerLogs {
  readonly lines: string[] = [];
  override channel(): vscode.LogOutputChannel {
    const at = (level: string) => (message: string) => void this.lines.push(`${level} ${message}`);
    return { info: at('info'), warn: at('warning'), error: at('error') } as unknown as vscode.LogOutputChannel;
  }
}

describe("a server's log", () => {
  it('logs stderr as info (stderr is not an error signal); warnings and errors keep their level', () => {
    const logs = new RecordedLogs();
    const log = logs.logFor('fs');
    log.stderr('Secure MCP Filesystem Server running on stdio');
    log.warn('Tool "x" was left out: it has no inputSchema.');
    log.error('exited with code 1');
    assert.deepEqual(logs.lines, [
      'info [stderr] Secure MCP Filesystem Server running on stdio',
      'warning Tool "x" was left out: it has no inputSchema.',
      'error exited with code 1',
    ]);
  });

  it("says a server message's level once: the channel's own level word is not repeated, a level it has no word for stays", () => {
    const logs = new RecordedLogs();
    const log = logs.logFor('shelf');
    log.error('[error] now logging at warning');
    log.warn('[warning] disk almost full');
    log.info('[info] started');
    log.info('[notice] a notice');
    log.error('[critical] on fire');
    assert.deepEqual(logs.lines, ['error now logging at warning', 'warning disk almost full', 'info started', 'info [notice] a notice', 'error [critical] on fire']);
  });
});
