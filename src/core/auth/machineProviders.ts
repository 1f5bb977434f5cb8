import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ResolvedOAuth } from '../oauthCredentials';
import { loadSdk } from '../packages/load';
import { JwtBearerProvider } from './jwtBearerProvider';

/**
 * The SDK's provider for a grant without a browser: `client_credentials` (client_secret_basic, or
 * private_key_jwt with the configured key, RFC 7523 §2.2) or `cross_app_access` (the user's ID
 * token is exchanged at the identity provider for an ID-JAG, RFC 8693, which the server's
 * authorization server takes as a JWT bearer grant, RFC 7523; SEP-990) or `jwt_bearer` (the
 * workload's own JWT is that grant, SEP-1933; jwtBearerProvider.ts). The SDK requests the
 * token on the server's first 401 and keeps it in memory; `issuer`, when configured, keeps the
 * credentials from any other authorization server. Nothing here is logged.
 */
export function machineProvider(oauth: ResolvedOAuth): OAuthClientProvider {
  const { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } = loadSdk();
  const common = { clientId: oauth.clientId ?? '', clientName: 'MCP Tool Host', ...(oauth.scope && { scope: oauth.scope }), ...(oauth.issuer && { expectedIssuer: oauth.issuer }) };
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
