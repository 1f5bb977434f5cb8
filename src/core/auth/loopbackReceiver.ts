import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Disposable } from '../events';

/**
 * Receives the browser's redirect back from the authorization server: an HTTP listener on
 * 127.0.0.1 (never another interface) that accepts exactly one callback carrying the `state`
 * we sent, and answers the browser with a page saying it may close the tab.
 *
 * Why a loopback listener (RFC 8252 §7.3, "native apps"), rather than a `vscode://` URI handler:
 * it works the same in the extension, in the headless CLI and in tests (plain Node); it needs no
 * protocol registration with the operating system; and the authorization server only ever sees
 * a loopback address. In VS Code remote setups the port is forwarded (`asExternalUri`).
 */
export class LoopbackRedirectReceiver implements Disposable {
  private readonly _server: http.Server;
  private _pending: { state: string; resolve: (params: URLSearchParams) => void } | undefined;

  constructor(private readonly _serverName: string) {
    this._server = http.createServer((req, res) => this._onRequest(req, res));
  }

  /** A port that is free now on 127.0.0.1 (the OS picks it at random). */
  static async freePort(): Promise<number> {
    const probe = http.createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  /** Starts listening on 127.0.0.1:`port`; rejects (EADDRINUSE...) when it cannot. */
  listen(port: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this._server.once('error', reject).listen(port, '127.0.0.1', () => {
        this._server.off('error', reject);
        resolve();
      });
    });
  }

  /** Resolves with the callback's query parameters (`code` or `error`, `state`, maybe `iss`) once it arrives. */
  waitForCallback(state: string): Promise<URLSearchParams> {
    return new Promise<URLSearchParams>((resolve) => (this._pending = { state, resolve }));
  }

  dispose(): void {
    this._pending = undefined;
    this._server.close();
    this._server.closeAllConnections();
  }

  private _onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const pending = this._pending;
    // Only the answer to our own request counts: anything else (a stray tab, another site) is refused.
    if (req.method !== 'GET' || !pending || !params.get('state') || params.get('state') !== pending.state) {
      return page(res, 400, 'This sign-in link is unknown or has expired. Return to MCP Tool Host and start the server again.');
    }
    this._pending = undefined;
    const failed = params.has('error') || !params.has('code');
    page(res, 200, failed ? `Signing in to "${this._serverName}" did not succeed. Return to MCP Tool Host to see why.` : `You are signed in to "${this._serverName}". You can close this tab.`);
    pending.resolve(params);
  }
}

function page(res: http.ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end(`<!doctype html><meta charset="utf-8"><title>MCP Tool Host</title><p style="font:16px system-ui;margin:3em">${escaped}</p>`);
}
