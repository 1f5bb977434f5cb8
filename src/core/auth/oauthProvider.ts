import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { assertNever } from '../events';
import type { ServerCredentials } from './serverCredentials';
import { OAuthUnsupportedError } from './signInErrors';

/** What the SDK asked for when it decided the user must sign in. */
export interface AuthorizationRequest {
  readonly url: URL;
  /** The `state` sent with it: the redirect receiver accepts only a callback that carries it back. */
  readonly state: string;
}

/**
 * The SDK's `OAuthClientProvider` for one server, over its stored credentials: a public client
 * (PKCE, no secret) registered dynamically with a loopback redirect URL. The SDK drives the flow
 * (discovery, registration, PKCE, token exchange, refresh); this class only keeps what it hands
 * over and reports when the user has to sign in. Nothing here is ever logged.
 */
export class HostOAuthProvider implements OAuthClientProvider {
  private _state: string | undefined;
  /** Discovery results, for this session only: the redirect round trip needs them, a later start discovers again. */
  private _discovery: OAuthDiscoveryState | undefined;

  constructor(
    private readonly _credentials: ServerCredentials,
    private readonly _redirect: { readonly url: string; readonly port: number },
    private readonly _onAuthorizationRequest: (request: AuthorizationRequest) => void,
  ) {}

  get redirectUrl(): string {
    return this._redirect.url;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP Tool Host',
      redirect_uris: [this._redirect.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this._state = randomBytes(24).toString('base64url');
    return this._state;
  }

  /** The registration, unless it was made for another redirect URL (a new port): then the SDK registers again. */
  clientInformation(): StoredOAuthClientInformation | undefined {
    const { client, redirectUrl } = this._credentials.record;
    return client && redirectUrl === this._redirect.url ? client : undefined;
  }

  /** Keeps the registration with the redirect URL and port it names, so later sign-ins listen on the same port. */
  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this._credentials.update({ client, redirectUrl: this._redirect.url, redirectPort: this._redirect.port });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this._credentials.record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this._credentials.update({ tokens, codeVerifier: undefined });
  }

  redirectToAuthorization(url: URL): void {
    // Opening the browser waits for the user, so it happens after this connect attempt gave up (OAuthSignIn.recover).
    this._onAuthorizationRequest({ url, state: this._state ?? url.searchParams.get('state') ?? '' });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this._credentials.update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this._credentials.record.codeVerifier;
    if (!verifier) throw new Error('No sign-in is in progress (the PKCE code verifier is missing).');
    return verifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this._discovery;
  }

  /**
   * Called by the SDK after discovery, before it registers a client or builds an authorization
   * URL. Without any metadata the SDK would guess `/register` and `/authorize` at the server's
   * origin (the 2025-03-26 fallback); a server that publishes nothing about OAuth gets today's
   * plain 401 error instead of a browser opened on a guess.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (!state.resourceMetadata && !state.authorizationServerMetadata) throw new OAuthUnsupportedError();
    this._discovery = state;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this._discovery = undefined;
    switch (scope) {
      case 'all':
        return this._credentials.update({ client: undefined, redirectUrl: undefined, tokens: undefined, codeVerifier: undefined });
      case 'client':
        return this._credentials.update({ client: undefined, redirectUrl: undefined });
      case 'tokens':
        return this._credentials.update({ tokens: undefined });
      case 'verifier':
        return this._credentials.update({ codeVerifier: undefined });
      case 'discovery':
        return;
      default:
        assertNever(scope);
    }
  }
}
