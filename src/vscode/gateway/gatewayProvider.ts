import * as vscode from 'vscode';

/** The provider's id, as package.json `contributes.mcpServerDefinitionProviders` declares it. */
export const GATEWAY_PROVIDER_ID = 'mcpToolHost.gateway';
/** The name VS Code shows for the gateway among its MCP servers. */
export const GATEWAY_LABEL = 'MCP Tool Host (gateway)';

/** Where the running gateway listens and the token it wants; undefined while it is off. */
export interface GatewayAddress {
  readonly url: string;
  readonly token: string;
}

/**
 * The gateway as one server of VS Code's own MCP support: an HTTP definition to its loopback URL
 * with the bearer token in a header, or nothing while it is off. VS Code asks again when the
 * gateway starts, stops or gets a new token (a new port and token each start).
 */
export class GatewayProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this._onDidChange.event;
  private _address: GatewayAddress | undefined;

  constructor(
    /** The gateway's address once a start in flight is done (undefined: it is off or failed). */
    private readonly _ready: () => Promise<GatewayAddress | undefined>,
    private readonly _version: string,
  ) {}

  /** Called by the host as the gateway starts or stops. */
  set(address: GatewayAddress | undefined): void {
    if (address?.url === this._address?.url && address?.token === this._address?.token) return;
    this._address = address;
    this._onDidChange.fire();
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    return this._address ? [this._definition(this._address)] : [];
  }

  /** At VS Code's start of the server: the address now (a restart since it listed gives a new one); none while off. */
  async resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition | undefined> {
    const address = await this._ready();
    if (!address) return undefined;
    server.uri = vscode.Uri.parse(address.url);
    server.headers = { ...server.headers, Authorization: `Bearer ${address.token}` };
    return server;
  }

  private _definition(address: GatewayAddress): vscode.McpHttpServerDefinition {
    return new vscode.McpHttpServerDefinition(GATEWAY_LABEL, vscode.Uri.parse(address.url), { Authorization: `Bearer ${address.token}` }, this._version);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
