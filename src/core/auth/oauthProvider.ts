import { randomBytes } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { dpopSessionOf } from './dpopKeys';
import type { ServerCredentials } from './serverCredentials';
import { SignInError } from './signInErrors';

/** Who the client is, when the user said so (oauthConfig.ts); otherwise it registers dynamically. */
export interface ClientIdentity {
  /** A client registered with the authorization server beforehand (a secret makes it confidential). */
  readonly preregistered?: { readonly clientId: string; readonly clientSecret?: string };
  /** The URL of the client's metadata document, used as its client id where the server supports it (SEP-991). */
  readonly clientMetadataUrl?: string;
  /** The scope asked for when neither the server's challenge nor its metadata names one. */
  readonly scope?: string;
  /** The authorization server a pre-registered client belongs to: its credentials go to no other. */
  readonly issuer?: string;
  /** The server's name, for errors. */
  readonly serverName: string;
}

/** Refresh a token this long before it expires (at most half its lifetime): a request never carries one the server may find expired. */
const REFRESH_MARGIN_MS = 60_000;

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
  /** Discovery results of the last discovery (DPoP reads them); handed back to the SDK only within a sign-in's round trip. */
  private _discovery: OAuthDiscoveryState | undefined;
  /** Between the authorization request and the code's redemption: the callback leg must see the discovery that sent the user. */
  private _awaitingCode = false;
  private _fallback = false;
  /** A refresh before expiry in flight (one at a time), and whether its SDK round ended in asking for a sign-in. */
  private _refreshing: Promise<void> | undefined;
  private _refreshFailed = false;

  /**
   * `refresh` runs the SDK's flow for this provider (discovery, then the refresh_token grant);
   * `onRefreshFailed` says once that it failed and the user will be asked to sign in.
   */
  constructor(
    private readonly _credentials: ServerCredentials,
    private readonly _redirect: { readonly url: string; readonly port: number },
    private readonly _onAuthorizationRequest: (request: AuthorizationRequest) => void,
    private readonly _identity?: ClientIdentity,
    private readonly _refresh?: { readonly run: (provider: HostOAuthProvider) => Promise<unknown>; readonly onFailed: () => void },
  ) {}

  /** Read by the SDK: with an authorization server that supports it, this URL is the client id and nothing is registered. */
  get clientMetadataUrl(): string | undefined {
    return this._identity?.clientMetadataUrl;
  }

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
      ...(this._identity?.scope && { scope: this._identity.scope }),
    };
  }

  state(): string {
    this._state = randomBytes(24).toString('base64url');
    return this._state;
  }

  /**
   * The pre-registered client (refused to any authorization server but its own, when the user
   * named it), or the registration, unless it was made for another redirect URL (a new port):
   * then the SDK registers again.
   */
  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const preregistered = this._identity?.preregistered;
    if (preregistered) {
      const issuer = this._identity?.issuer;
      if (issuer && ctx && !sameIssuer(issuer, ctx.issuer)) {
        throw new SignInError(`"${this._identity?.serverName}" sends you to the authorization server ${ctx.issuer}, but its client id (oauth.clientId) belongs to ${issuer} (oauth.issuer): nothing was sent. Check the server's URL and oauth.issuer.`);
      }
      // Stamped with the issuer it is used with (SEP-2352): the SDK binds the tokens it gets to that server.
      return { client_id: preregistered.clientId, ...(preregistered.clientSecret !== undefined && { client_secret: preregistered.clientSecret }), ...(ctx && { issuer: ctx.issuer }) };
    }
    const { client, redirectUrl } = this._credentials.record;
    return client && redirectUrl === this._redirect.url && bound(client, ctx) ? client : undefined;
  }

  /** Keeps the registration with the redirect URL and port it names, so later sign-ins listen on the same port. A pre-registered client is configuration: nothing to keep. */
  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    if (this._identity?.preregistered) return;
    await this._credentials.update({ client, redirectUrl: this._redirect.url, redirectPort: this._redirect.port });
  }

  /** RFC 9449: the key tokens are bound to, when the authorization server offers DPoP (dpopKeys.ts). */
  dpop(): Promise<DpopSession> | undefined {
    return dpopSessionOf(this._credentials, this._discovery);
  }

  /**
   * With `ctx` the SDK asks for the tokens of that authorization server (to refresh them): tokens
   * saved without the issuer they came from (by a version before the SDK stamped them) are not
   * shown to it, since they may be another server's. Without `ctx` it is the bearer token for the
   * next request to the MCP server, refreshed first when it is about to expire.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx) {
      const tokens = this._credentials.record.tokens;
      return tokens && bound(tokens, ctx) ? tokens : undefined;
    }
    if (this._refresh && !this._awaitingCode && this._expiresSoon()) await (this._refreshing ??= this._refreshNow().finally(() => (this._refreshing = undefined)));
    return this._credentials.record.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this._awaitingCode = false;
    await this._credentials.update({ tokens, tokensSavedAt: Date.now(), codeVerifier: undefined });
  }

  private _expiresSoon(): boolean {
    const { tokens, tokensSavedAt } = this._credentials.record;
    if (!tokens?.refresh_token || tokensSavedAt === undefined || tokens.expires_in === undefined) return false;
    const lifetime = tokens.expires_in * 1000;
    return Date.now() >= tokensSavedAt + lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 2);
  }

  /**
   * Refreshes through the SDK. When that ends in asking for a sign-in (the token endpoint failed or
   * refused the refresh token), the authorization request is not kept: the tokens are dropped, so the
   * request goes without one, and its 401 starts the one sign-in the user sees (no second refresh).
   */
  private async _refreshNow(): Promise<void> {
    this._refreshFailed = false;
    try {
      await this._refresh?.run(this);
    } catch {
      this._refreshFailed = true; // discovery or the refresh failed outright: the same for the user
    }
    if (!this._refreshFailed) return;
    this._refresh?.onFailed();
    await this._credentials.update({ tokens: undefined, tokensSavedAt: undefined, codeVerifier: undefined });
  }

  redirectToAuthorization(url: URL): void {
    if (this._refreshing) {
      this._refreshFailed = true;
      return;
    }
    this._awaitingCode = true;
    // Opening the browser waits for the user, so it happens after this connect attempt gave up (OAuthSignIn.recover).
    this._onAuthorizationRequest({ url, state: this._state ?? url.searchParams.get('state') ?? '' });
  }

  /** The sign-in ended without a code redeemed (cancelled, failed): the next 401 discovers again. */
  endSignIn(): void {
    this._awaitingCode = false;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this._credentials.update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this._credentials.record.codeVerifier;
    if (!verifier) throw new Error('No sign-in is in progress (the PKCE code verifier is missing).');
    return verifier;
  }

  /**
   * What the SDK discovered, only while a sign-in waits for its code (the callback leg checks the
   * authorization server it came back from against it). Otherwise every 401 discovers again: the
   * server may name another authorization server now, and then the client registers there and
   * never shows it the old one's credentials (SEP-2352; conformance auth/authorization-server-migration).
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this._awaitingCode ? this._discovery : undefined;
  }

  /**
   * Called by the SDK after discovery, before it registers a client or builds an authorization
   * URL. Without any metadata the SDK uses `/register`, `/authorize` and `/token` at the server's
   * origin, as the 2025-03-26 revision says clients must ("fallbacks for servers without metadata
   * discovery"); `usesFallbackEndpoints` lets the sign-in say "this server publishes no OAuth"
   * when those endpoints are not there either (OAuthSignIn.recover).
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this._fallback = !state.resourceMetadata && !state.authorizationServerMetadata;
    this._discovery = state;
  }

  /** Discovery found no metadata: the endpoints are the 2025-03-26 defaults at the server's origin. */
  get usesFallbackEndpoints(): boolean {
    return this._fallback;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'discovery') this._discovery = undefined;
    switch (scope) {
      case 'all':
        return this._credentials.update({ client: undefined, redirectUrl: undefined, tokens: undefined, tokensSavedAt: undefined, codeVerifier: undefined });
      case 'client':
        return this._credentials.update({ client: undefined, redirectUrl: undefined });
      case 'tokens':
        return this._credentials.update({ tokens: undefined, tokensSavedAt: undefined });
      case 'verifier':
        return this._credentials.update({ codeVerifier: undefined });
      case 'discovery':
        return;
      default: {
        // Every scope is handled (a new one fails to compile). Not events.ts's assertNever: its Emitter would come into dist/auth.js too.
        const unexpected: never = scope;
        throw new Error(`unexpected value: ${JSON.stringify(unexpected)}`);
      }
    }
  }
}

/**
 * Whether stored credentials may go to the authorization server of `ctx`: those the SDK stamped with
 * another issuer it drops itself; unstamped ones (kept by an older version) could be anyone's.
 */
function bound(stored: { readonly issuer?: string }, ctx: OAuthClientInformationContext | undefined): boolean {
  return !ctx || stored.issuer !== undefined;
}

/** Issuer identifiers compare as strings (RFC 8414 §3.3), a trailing slash aside. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
