// A remote server's OAuth credentials once its settings are resolved: the bottom layer, so that
// config (which resolves them, oauthConfig.ts) and auth (which uses them) share the types.

/**
 * How a remote server's OAuth credentials are obtained:
 * - `authorization_code` (the default): the user signs in in a browser. The client is registered
 *   dynamically, or is the pre-registered `clientId` (with `clientSecret` for a confidential
 *   one), or is named by the URL of its metadata document (`clientMetadataUrl`, "CIMD").
 * - `client_credentials`: no user; the client authenticates with `clientSecret`
 *   (client_secret_basic) or a private key (private_key_jwt, RFC 7523).
 * - `cross_app_access`: the user's ID token from the enterprise identity provider is exchanged
 *   there for an authorization grant (RFC 8693), which the server's authorization server
 *   exchanges for a token (RFC 7523 JWT bearer grant; SEP-990).
 * - `jwt_bearer`: no user; the workload's own JWT (`assertion` or `assertionFile`, issued by its
 *   platform) is the RFC 7523 jwt-bearer grant of the public client `clientId` (workload identity
 *   federation, SEP-1933).
 */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'cross_app_access' | 'jwt_bearer';

/** The settings with every variable substituted and every file read: secrets, never logged. */
export interface ResolvedOAuth {
  readonly grant: OAuthGrant;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly clientMetadataUrl?: string;
  readonly privateKey?: string;
  readonly signingAlgorithm?: string;
  readonly scope?: string;
  readonly issuer?: string;
  /** The workload JWT of the `jwt_bearer` grant. */
  readonly assertion?: string;
  readonly idp?: { readonly tokenEndpoint: string; readonly clientId: string; readonly clientSecret?: string; readonly idToken: string };
}
