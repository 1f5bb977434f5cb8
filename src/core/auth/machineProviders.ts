import type { OAuthClientInformationContext, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ResolvedOAuth } from '../oauthCredentials';
import { loadSdk } from '../packages/load';
import { JwtBearerProvider } from './jwtBearerProvider';
import type { ServerCredentials } from './serverCredentials';
import { SignInError } from './signInErrors';

/**
 * Stands for the issuer in the SDK's providers until the first token request names it: our
 * `clientInformation` replaces the stamp (pinToIssuer) before the SDK ever reads it.
 */
const UNPINNED_ISSUER = 'urn:mcp-tool-host:issuer-not-yet-known';

/**
 * The SDK's provider for a grant without a browser: `client_credentials` (client_secret_basic, or
 * private_key_jwt with the configured key, RFC 7523 §2.2) or `cross_app_access` (the user's ID
 * token is exchanged at the identity provider for an ID-JAG, RFC 8693, which the server's
 * authorization server takes as a JWT bearer grant, RFC 7523; SEP-990) or `jwt_bearer` (the
 * workload's own JWT is that grant, SEP-1933; jwtBearerProvider.ts). The SDK requests the
 * token on the server's first 401 and keeps it in memory. The credentials go to one authorization
 * server only (pinToIssuer). Nothing here is logged.
 */
export function machineProvider(oauth: ResolvedOAuth, credentials: ServerCredentials, serverName: string): OAuthClientProvider {
  return pinToIssuer(sdkProvider(oauth), oauth, credentials, serverName);
}

/**
 * Keeps a machine grant's credentials for one authorization server: `oauth.issuer` when the user
 * named it, else the first one the server sent them to, kept with the server's credentials (trust on
 * first use, like an SSH host key). A server that later names another is refused, and nothing is sent.
 */
function pinToIssuer(provider: OAuthClientProvider, oauth: ResolvedOAuth, credentials: ServerCredentials, serverName: string): OAuthClientProvider {
  const own = provider.clientInformation.bind(provider);
  provider.clientInformation = async (ctx?: OAuthClientInformationContext) => {
    const client = await own(ctx);
    if (!ctx || !client) return client;
    const pinned = oauth.issuer ?? credentials.record.issuer;
    if (pinned !== undefined && !sameIssuer(pinned, ctx.issuer)) {
      const fix = oauth.issuer ? `Check the server's URL and oauth.issuer.` : `If the server really moved, set oauth.issuer to ${ctx.issuer}, or sign out of it to forget ${pinned}.`;
      throw new SignInError(`"${serverName}" sends its client credentials to the authorization server ${ctx.issuer}, but they belong to ${pinned}${oauth.issuer ? ' (oauth.issuer)' : ' (where they were first used)'}: nothing was sent. ${fix}`);
    }
    if (pinned === undefined) await credentials.update({ issuer: ctx.issuer });
    return { ...client, issuer: ctx.issuer };
  };
  return provider;
}

/** Issuer identifiers compare as strings (RFC 8414 §3.3), a trailing slash aside. */
function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

function sdkProvider(oauth: ResolvedOAuth): OAuthClientProvider {
  const { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } = loadSdk();
  const common = { clientId: oauth.clientId ?? '', clientName: 'MCP Tool Host', ...(oauth.scope && { scope: oauth.scope }), expectedIssuer: oauth.issuer ?? UNPINNED_ISSUER };
  if (oauth.grant === 'client_credentials') {
    if (oauth.privateKey !== undefined) return new PrivateKeyJwtProvider({ ...common, privateKey: oauth.privateKey, algorithm: oauth.signingAlgorithm ?? 'RS256' });
    return new ClientCredentialsProvider({ ...common, clientSecret: oauth.clientSecret ?? '' });
  }
  if (oauth.grant === 'jwt_bearer') return new JwtBearerProvider(oauth);
  const idp = oauth.idp;
  if (oauth.grant !== 'cross_app_access' || !idp) throw new Error(`No machine provider for the "${oauth.grant}" grant.`);
  return new CrossAppAccessProvider({
    ...common,
    clientSecret: oauth.clientSecret ?? '',
    assertion: async (ctx) =>
      (
        await requestJwtAuthorizationGrant({
          tokenEndpoint: idp.tokenEndpoint,
          audience: ctx.authorizationServerUrl,
          resource: ctx.resourceUrl,
          idToken: idp.idToken,
          clientId: idp.clientId,
          ...(idp.clientSecret !== undefined && { clientSecret: idp.clientSecret }),
          ...(ctx.scope && { scope: ctx.scope }),
          fetchFn: ctx.fetchFn,
        })
      ).jwtAuthGrant,
  });
}
