import * as vscode from 'vscode';
import type { GatewayDeps, RunningHttpGateway } from '../../core/gateway/gatewayTypes';
import { clampBudget, DEFAULT_RESULT_TOKENS } from '../../core/chat/resultBudget';
import { loadGateway } from '../../core/gateway/load';
import { sanitizeLine } from '../../core/render/sanitize';
import type { ServerLog } from '../../core/serverLog';
import { gatewaySettings, SECTION, type GatewayToolMode } from '../config/settings';
import { GatewayProvider, GATEWAY_PROVIDER_ID, type GatewayAddress } from './gatewayProvider';

/** What the gateway needs of the window: the surface's own pipeline decides every call that asks. */
export type GatewayHostDeps = Pick<GatewayDeps, 'pool' | 'pipeline' | 'offers' | 'clientVersion' | 'pins'>;

/** What runs now: nothing, or the gateway in one tool mode. */
type Running = { readonly kind: 'off' } | { readonly kind: 'on'; readonly tools: GatewayToolMode; readonly gateway: RunningHttpGateway };

/**
 * Hosts the gateway while `mcpToolHost.gateway.enabled` is on, and registers it with VS Code's own
 * MCP support, so agent mode reaches our servers only through our policy. Calls that ask are
 * decided by our approval prompt (`asks: 'host'`): the connected client, and so the model, never
 * answers them. The gateway's code (dist/gateway.js) loads only once the setting is on.
 */
export class GatewayHost implements vscode.Disposable {
  private readonly _provider: GatewayProvider;
  private readonly _disposables: vscode.Disposable[] = [];
  private _running: Running = { kind: 'off' };
  /** Each change of the setting waits for the one before: a start and a stop never overlap. */
  private _turn: Promise<void> = Promise.resolve();
  private _channel: vscode.LogOutputChannel | undefined;
  private _disposed = false;

  constructor(private readonly _deps: GatewayHostDeps) {
    this._provider = new GatewayProvider(() => this._turn.then(() => this._address()), _deps.clientVersion);
    this._disposables.push(
      this._provider,
      vscode.lm.registerMcpServerDefinitionProvider(GATEWAY_PROVIDER_ID, this._provider),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.gateway`) && this.apply()),
    );
  }

  /** Starts, stops or restarts the gateway to match the settings; resolves once it does. */
  apply(): Promise<void> {
    this._turn = this._turn.then(() => this._match()).catch((err: unknown) => this._failed(err));
    return this._turn;
  }

  /** The running gateway's address (the tests' way to the URL VS Code is given). */
  get address(): GatewayAddress | undefined {
    return this._address();
  }

  private _address(): GatewayAddress | undefined {
    return this._running.kind === 'on' ? { url: this._running.gateway.url, token: this._running.gateway.token } : undefined;
  }

  private async _match(): Promise<void> {
    const wanted = gatewaySettings();
    const now = this._running;
    if (!this._disposed && wanted.enabled && now.kind === 'on' && now.tools === wanted.tools) return;
    if (now.kind === 'on') {
      this._running = { kind: 'off' };
      this._provider.set(undefined);
      await now.gateway.close();
      this._log().info(vscode.l10n.t('Gateway stopped.'));
    }
    if (this._disposed || !wanted.enabled) return;
    const gateway = await loadGateway().startHttpGateway({ ...this._deps, asks: 'host', toolMode: wanted.tools, log: this._serverLog(), resultTokens: this._resultTokens });
    if (this._disposed || !gatewaySettings().enabled) {
      await gateway.close();
      return;
    }
    this._running = { kind: 'on', tools: wanted.tools, gateway };
    this._provider.set(this._address());
    // The URL without the token: the log is for people, and the token is VS Code's alone.
    this._log().info(vscode.l10n.t('Gateway listening on {0} (tools: {1}); VS Code lists it as an MCP server.', gateway.url, wanted.tools));
  }

  private _failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this._log().error(vscode.l10n.t('The gateway could not start: {0}', message));
    void vscode.window.showErrorMessage(vscode.l10n.t('MCP Tool Host could not start its gateway for VS Code\'s agent mode: {0}', message));
  }

  private _log(): vscode.LogOutputChannel {
    return (this._channel ??= vscode.window.createOutputChannel('MCP Tool Host: Gateway', { log: true }));
  }

  /** The model's budget for a tool result, `mcpToolHost.chat.resultTokens` as @mcp uses it: read at each call, so a change applies at once. */
  private readonly _resultTokens = () => clampBudget(vscode.workspace.getConfiguration(SECTION).get<number>('chat.resultTokens', DEFAULT_RESULT_TOKENS) ?? DEFAULT_RESULT_TOKENS);

  private _serverLog(): ServerLog {
    const log = this._log();
    return {
      info: (m) => log.info(sanitizeLine(m)),
      warn: (m) => log.warn(sanitizeLine(m)),
      error: (m) => log.error(sanitizeLine(m)),
      stderr: (line) => log.info(`[stderr] ${sanitizeLine(line)}`),
    };
  }

  /** Stops the gateway (its port closes; VS Code's connection to it ends). */
  async stop(): Promise<void> {
    this._disposed = true;
    await this.apply();
  }

  dispose(): void {
    void this.stop().finally(() => this._channel?.dispose());
    for (const d of this._disposables) d.dispose();
  }
}
