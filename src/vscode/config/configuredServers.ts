import * as vscode from 'vscode';
import { readServerSettings, type ServerSettings } from './settings';

/**
 * The server settings as last read: `read()` re-reads them (settings and workspace mcp.json
 * files) and keeps them. A new set of configuration warnings is written to the output channel once.
 */
export class ConfiguredServers {
  private _current: ServerSettings = { servers: [], errors: [], warnings: [] };
  private _shownWarnings = '';

  constructor(private readonly _output: vscode.OutputChannel) {}

  read(): ServerSettings {
    this._current = readServerSettings();
    const warnings = this._current.warnings.join('\n');
    if (warnings && warnings !== this._shownWarnings) {
      this._output.appendLine(vscode.l10n.t('Configuration warnings:\n{0}', this._current.warnings.map((w) => `  - ${w}`).join('\n')));
    }
    this._shownWarnings = warnings;
    return this._current;
  }
}
