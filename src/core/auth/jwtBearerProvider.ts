import type { ResolvedOAuth } from '../oauthCredentials';
import { loadSdk } from '../packages/load';
import type { OAuthClientInformationContext, OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** RFC 7523 §2.1: the grant type of an assertion used as an authorization grant. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Workload identity federation (SEP-1933): the workload's JWT, issued by its platform, is the
 * RFC 7523 jwt-bearer grant of a public client (token endpoint auth none). The SDK discovers the
 * authorization server and calls `prepareTokenRequest` on the server's 401; the token is kept in
 * memory. A refused grant is final: there is no browser or other grant to fall back to. Part of
 * the sign-in's bundle (dist/auth.js); the SDK's error class comes from the session runtime.
 */
export class JwtBearerProvider implements OAuthClientProvider {
  private _tokens: StoredOAuthTokens | undefined;

  /** `oauth.assertion` is the workload's JWT (a secret: never logged, never part of an error); `oauth.issuer`, when set, is the only authorization server it goes to. */
  constructor(private readonly _options: ResolvedOAuth) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'MCP Tool Host', redirect_uris: [], grant_types: [JWT_BEARER_GRANT], token_endpoint_auth_method: 'none', ...(this._options.scope && { scope: this._options.scope }) };
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation {
    const issuer = this._options.issuer;
    if (issuer && ctx && issuer.replace(/\/+$/, '') !== ctx.issuer.replace(/\/+$/, '')) {
      throw new Error(`the server sends you to the authorization server ${ctx.issuer}, but the workload token is for ${issuer} (oauth.issuer): nothing was sent. Check the server's URL and oauth.issuer.`);
    }
    return { client_id: this._options.clientId ?? '', ...(ctx && { issuer: ctx.issuer }) };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this._tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this._tokens = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('The jwt_bearer grant has no browser sign-in.');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('The jwt_bearer grant has no code verifier.');
  }

  /**
   * The SDK calls this when the token request was refused with invalid_grant ("client" first for
   * unauthorized_client or invalid_client), then sends the same grant again. The same workload
   * token would be refused again (SEP-1933: no retry, no other grant), so this ends the attempt.
   */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope !== 'client' && scope !== 'tokens') return;
    this._tokens = undefined;
    throw new (loadSdk().OAuthError)(scope === 'client' ? 'unauthorized_client' : 'invalid_grant', 'the authorization server refused the workload token (oauth.assertion); it is not sent again');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: this._options.assertion ?? '' });
    if (scope) params.set('scope', scope);
    return params;
  }
}
