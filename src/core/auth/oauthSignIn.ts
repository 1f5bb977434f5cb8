import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ResolvedOAuth } from '../oauthCredentials';
import type { ServerLog } from '../serverLog';
import type { Disposable } from '../events';
import { loadLinks } from '../elicitation/load';
import { loadSdk } from '../packages/load';
import { sanitizeLine } from '../render/sanitize';
import { httpStatus } from '../transport/httpTransports';
import { OAUTH_REDIRECT_REFUSED, refuseOAuthRedirects } from '../transport/oauthRedirects';
import { LoopbackRedirectReceiver } from './loopbackReceiver';
import { machineProvider } from './machineProviders';
import { HostOAuthProvider, type AuthorizationRequest } from './oauthProvider';
import type { OAuthHost } from './ports';
import { ServerCredentials } from './serverCredentials';
import { OAuthUnsupportedError, SignInError } from './signInErrors';
import { isSignInError } from './signInMark';

/** How long the user has to finish signing in, in the browser. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** Step-ups to a wider scope one launch may ask of the user after the first sign-in (a server that keeps asking is refused). */
const MAX_STEP_UPS = 2;
/** Server-sent error descriptions are shown at most this long. */
const MAX_DETAIL_CHARS = 200;

/** What redeems the authorization code: both SDK HTTP transports have it. */
export interface AuthFinisher {
  finishAuth(callbackParams: URLSearchParams): Promise<void>;
}

/**
 * OAuth for one launch of one remote server, through the SDK's flow. A server is first contacted
 * without OAuth (most servers need none: no port, no forwarding); its 401 puts the provider in
 * place and the connection tries again, and the SDK then discovers the authorization server,
 * registers and asks for the user's sign-in. `recover()` then listens on the loopback redirect
 * port, opens the browser, waits for the callback (bounded, cancelled by `dispose()` when the
 * server stops) and lets the transport redeem the code. Saved credentials put the provider in
 * place from the start, so later starts send their token at once; the SDK refreshes it.
 */
export class OAuthSignIn implements Disposable {
  private _provider: HostOAuthProvider | undefined;
  /** The provider of a grant without a browser (client credentials, cross-app access). */
  private _machine: OAuthClientProvider | undefined;
  private _port = 0;
  private _request: AuthorizationRequest | undefined;
  /** The user signed in during this launch: a later sign-in is a step-up or replaces a refused token. */
  private _signedIn = false;
  /** Sign-ins for a wider scope since the first (bounded by MAX_STEP_UPS). */
  private _stepUps = 0;
  /** The scope the last sign-in was granted. */
  private _scope: string | undefined;
  /**
   * The server took the token of the last sign-in at least once. A token refused before that is not
   * worth another sign-in: the server refuses whatever it is given, and asking again would loop.
   */
  private _accepted = true;
  private readonly _abort = new AbortController();
  private _receiver: LoopbackRedirectReceiver | undefined;

  private constructor(
    private readonly _serverName: string,
    private readonly _url: string,
    private readonly _host: OAuthHost,
    private readonly _credentials: ServerCredentials,
    private readonly _log: ServerLog,
    private readonly _oauth?: ResolvedOAuth,
  ) {}

  /**
   * The sign-in for a remote launch, or undefined when there is nothing to sign in with: no OAuth
   * host, or an `Authorization` header configured by the user, who then manages credentials.
   */
  static async prepare(serverName: string, url: string, headers: Readonly<Record<string, string>>, oauth: ResolvedOAuth | undefined, host: OAuthHost | undefined, log: ServerLog): Promise<OAuthSignIn | undefined> {
    if (!host || Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
    const signIn = new OAuthSignIn(serverName, url, host, await ServerCredentials.load(host.secrets, serverName, url), log, oauth);
    // Without a browser the credentials are configured: the provider is there from the start (it asks for a token on the first 401).
    if (oauth && oauth.grant !== 'authorization_code') signIn._machine = machineProvider(oauth, signIn._credentials, serverName);
    else if (signIn._credentials.record.client || oauth?.clientId) await signIn._arm();
    return signIn;
  }

  /** The SDK's provider for the transport, once the server has shown that it wants OAuth. */
  get provider(): OAuthClientProvider | undefined {
    return this._machine ?? this._provider;
  }

  /**
   * After a failed connect: true when connecting again can succeed because the server answered
   * 401 and the provider is now in place, or because the user just signed in. Rejects with a
   * SignInError when signing in failed.
   */
  async recover(err: unknown, transport: AuthFinisher, onWaiting: (message: string) => void): Promise<boolean> {
    if (isSignInError(err)) throw err; // also one the host threw (ports.ts)
    throwIfRefusedEndpoint(err, this._serverName);
    if (this._machine) {
      // The configured credentials were refused, or the token request failed: no browser can help.
      if (httpStatus(err) === 401 || err instanceof loadSdk().OAuthError) throw new SignInError(explainSignInFailure(err, this._serverName), { cause: err });
      return false;
    }
    if (this._request) {
      await this._complete(transport, onWaiting);
      return true;
    }
    // No metadata, and the 2025-03-26 default endpoints failed too: the server offers no OAuth we can use.
    if (this._provider?.usesFallbackEndpoints && !this._signedIn) throw new OAuthUnsupportedError({ cause: err });
    if (this._provider || httpStatus(err) !== 401) return false;
    await this._arm();
    return true;
  }

  /**
   * A request failed after the session was up: true when the user signed in again, so the request
   * can be sent once more. The SDK asks for a sign-in on a 403 insufficient_scope (more scope) and
   * on a 401 whose token it cannot refresh; a 401 it answered with a refreshed token that the
   * server refused too (a revoked sign-in, or a server that moved to another authorization server)
   * gets a sign-in here, after discovering again. False when `err` is not about the sign-in.
   * Rejects with a SignInError that says what happened when signing in failed or cannot help.
   */
  async recoverRequest(err: unknown, transport: AuthFinisher, onWaiting: (message: string) => void): Promise<boolean> {
    if (isSignInError(err)) throw err;
    const name = this._serverName;
    throwIfRefusedEndpoint(err, name);
    if (this._machine) {
      // The SDK asked for a new token with the configured credentials already: no browser can help.
      if (refusesToken(err) || err instanceof loadSdk().OAuthError) throw new SignInError(explainSignInFailure(err, name), { cause: err });
      return false;
    }
    if (!this._request) {
      if (!refusesToken(err)) return false;
      const provider = this._provider;
      // The server took requests without a token until now: the transport has no sign-in to offer until it connects again.
      if (!provider) throw new SignInError(`"${name}" now asks you to sign in (401 Unauthorized). Restart the server to sign in.`, { cause: err });
      if (this._signedIn && !this._accepted) throw this._refusedNewToken(err);
      await provider.invalidateCredentials('tokens'); // refused: only a new sign-in helps
      const outcome = await loadSdk().auth(provider, { serverUrl: this._url, fetchFn: refuseOAuthRedirects(fetch) })
        .catch((cause: unknown) => {
          throw new SignInError(explainSignInFailure(cause, name), { cause });
        });
      if (outcome === 'AUTHORIZED') return true;
    }
    await this._complete(transport, onWaiting);
    return true;
  }

  /**
   * The request sent again after a sign-in failed too: a SignInError that says so when the server
   * refused the new token or asked for yet another sign-in (which is not asked of the user twice for one request).
   */
  refusedAgain(err: unknown): unknown {
    if (this._machine || isSignInError(err) || !refusesToken(err)) return err;
    const again = this._request;
    this._request = undefined;
    this._provider?.endSignIn();
    return again && widens(again.url.searchParams.get('scope'), this._scope) ? this._stillRefuses() : this._refusedNewToken(err);
  }

  /** A request of the session succeeded: the token it carried works, and a later refusal may be answered with a new sign-in. */
  accepted(): void {
    this._accepted = true;
  }

  private _stillRefuses(): SignInError {
    return new SignInError(`"${this._serverName}" still refuses the connection after you signed in. Check that your account may use this server, then restart it.`);
  }

  private _refusedNewToken(err: unknown): SignInError {
    return new SignInError(`"${this._serverName}" refused the token you just signed in with (401 Unauthorized). Check that your account may use this server, then restart it to sign in again.`, { cause: err });
  }

  /** Picks the redirect port (the registered one when there is one) and builds the provider. */
  private async _arm(): Promise<void> {
    this._port = this._credentials.record.redirectPort ?? (await LoopbackRedirectReceiver.freePort());
    const local = `http://127.0.0.1:${this._port}/callback`;
    const redirectUrl = this._host.externalUrl ? await this._host.externalUrl(local) : local;
    const oauth = this._oauth;
    const identity = oauth && {
      serverName: this._serverName,
      ...(oauth.clientId !== undefined && { preregistered: { clientId: oauth.clientId, ...(oauth.clientSecret !== undefined && { clientSecret: oauth.clientSecret }) } }),
      ...(oauth.clientMetadataUrl !== undefined && { clientMetadataUrl: oauth.clientMetadataUrl }),
      ...(oauth.scope !== undefined && { scope: oauth.scope }),
      ...(oauth.issuer !== undefined && { issuer: oauth.issuer }),
    };
    const refresh = {
      run: (provider: HostOAuthProvider) => loadSdk().auth(provider, { serverUrl: this._url, fetchFn: refuseOAuthRedirects(fetch) }),
      onFailed: () => this._log.warn(`Could not refresh the sign-in to "${this._serverName}" (the authorization server did not renew it): asking you to sign in again.`),
    };
    this._provider = new HostOAuthProvider(this._credentials, { url: redirectUrl, port: this._port }, (request) => (this._request = request), identity, refresh);
  }

  /** Lets the user sign in and redeems the code; rejects with a SignInError that says what to do. */
  private async _complete(transport: AuthFinisher, onWaiting: (message: string) => void): Promise<void> {
    const request = this._request;
    this._request = undefined;
    const name = this._serverName;
    if (!request) throw new SignInError(`No sign-in to "${name}" was requested.`);
    // The page is the server's choice: held to the rules of any link a server asks to open.
    const page = loadLinks().checkUrl(request.url.href);
    if (page.kind === 'refused') throw new SignInError(`Refused to open the sign-in page of "${name}": ${page.why} (${page.shown}). Check the server's URL.`);
    const scope = request.url.searchParams.get('scope');
    if (this._signedIn) {
      // Again in this launch: a step-up (403 insufficient_scope names more scope than the token has), only so often;
      // or a token refused mid-session (401), only when the last sign-in's token ever worked.
      const stepUp = widens(scope, this._scope);
      if (stepUp ? this._stepUps >= MAX_STEP_UPS : !this._accepted) {
        this._provider?.endSignIn();
        throw stepUp ? this._stillRefuses() : this._refusedNewToken(undefined);
      }
      if (stepUp) this._stepUps++;
      this._log.info(stepUp ? `"${name}" asks for more access (scope ${sanitizeLine(scope ?? '')}): asking you to sign in again.` : `"${name}" no longer accepts the sign-in (401 invalid_token): asking you to sign in again.`);
    }
    const receiver = (this._receiver = new LoopbackRedirectReceiver(name));
    try {
      await this._listen(receiver);
      const message = `Waiting for you to sign in to "${name}" in your browser…`;
      this._log.info(`${message} (sign-in page: ${request.url.origin}${request.url.pathname})`);
      onWaiting(message);
      const callback = receiver.waitForCallback(request.state); // before the browser opens: it may come back at once
      let browserFailed: (error: Error) => void = () => undefined;
      const failure = new Promise<never>((_, reject) => (browserFailed = reject));
      failure.catch(() => undefined); // a browser that fails after the callback came changes nothing
      const params = await this._bounded(async () => {
        if (!(await this._host.openBrowser(page.url, name, (error) => browserFailed(error), page))) throw new SignInError(`Signing in to "${name}" was cancelled.`);
        return Promise.race([callback, failure]);
      });
      await transport.finishAuth(params).catch((err: unknown) => {
        throw new SignInError(explainSignInFailure(err, name), { cause: err });
      });
      this._log.info(`Signed in to "${name}".`);
      this._signedIn = true;
      this._accepted = false; // until a request with the new token succeeds
      this._scope = this._credentials.record.tokens?.scope ?? scope ?? undefined;
    } finally {
      this._provider?.endSignIn();
      receiver.dispose();
      this._receiver = undefined;
    }
  }

  /** Cancels a sign-in in progress (the server was stopped) and closes the redirect listener. */
  dispose(): void {
    this._abort.abort();
    this._receiver?.dispose();
  }

  private async _listen(receiver: LoopbackRedirectReceiver): Promise<void> {
    try {
      await receiver.listen(this._port);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      // The registration names this port: forget both, so the next start registers with a free one.
      await this._credentials.update({ redirectPort: undefined, redirectUrl: undefined, client: undefined });
      throw new SignInError(`Cannot receive the sign-in to "${this._serverName}": port ${this._port} on 127.0.0.1 is used by another program. Restart the server to sign in through another port.`);
    }
  }

  /** `work()`, unless the time runs out or the server is stopped first. */
  private _bounded<T>(work: () => Promise<T>): Promise<T> {
    const ms = this._host.signInTimeoutMs ?? SIGN_IN_TIMEOUT_MS;
    const signal = this._abort.signal;
    const name = this._serverName;
    return new Promise<T>((resolve, reject) => {
      const cancelled = () => settle(() => reject(new SignInError(`Signing in to "${name}" was cancelled: the server was stopped.`)));
      const timer = setTimeout(() => settle(() => reject(new SignInError(`You did not finish signing in to "${name}" within ${duration(ms)}. Restart the server to try again.`))), ms);
      const settle = (finish: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', cancelled);
        finish();
      };
      if (signal.aborted) return cancelled();
      signal.addEventListener('abort', cancelled, { once: true });
      work().then(
        (value) => settle(() => resolve(value)),
        (err: unknown) => settle(() => reject(err)),
      );
    });
  }
}

/**
 * A SignInError when the SDK refused an endpoint the authorization server named: metadata that
 * claims another issuer (a mix-up), or a token or registration request redirected elsewhere.
 * Connecting again would meet the same refusal, so it ends the attempt with what happened.
 */
function throwIfRefusedEndpoint(err: unknown, serverName: string): void {
  const refused = err instanceof loadSdk().IssuerMismatchError || (err instanceof Error && err.name === OAUTH_REDIRECT_REFUSED);
  if (refused) throw new SignInError(explainSignInFailure(err, serverName), { cause: err });
}

/** One sentence for a failed code exchange or a refused authorization. */
export function explainSignInFailure(err: unknown, serverName: string): string {
  const { IssuerMismatchError, OAuthError } = loadSdk();
  if (err instanceof IssuerMismatchError && err.kind === 'metadata') {
    // Only the issuer asked for is named: the one the metadata claims is the attacker's choice.
    return `Signing in to "${serverName}" was refused: the metadata of the authorization server ${sanitizeLine(err.expected ?? '').slice(0, MAX_DETAIL_CHARS)} names another authorization server as its issuer than the one it was fetched from (RFC 8414 §3.3), the sign of a mix-up attack that would send your sign-in elsewhere; nothing was sent to it. Tell the server's operator.`;
  }
  if (err instanceof Error && err.name === OAUTH_REDIRECT_REFUSED) return `Signing in to "${serverName}" failed: ${sanitizeLine(err.message)}`;
  if (err instanceof IssuerMismatchError) {
    return `Signing in to "${serverName}" failed: the answer came from another authorization server than the one asked, so it was ignored for your safety. Restart the server to try again.`;
  }
  if (err instanceof OAuthError) {
    const detail = sanitizeLine(err.message).slice(0, MAX_DETAIL_CHARS);
    if (err.code === 'access_denied') return `Signing in to "${serverName}" was denied${detail ? ` (${detail})` : ''}. Restart the server to try again.`;
    if (err.code === 'invalid_grant') return `The authorization server rejected the sign-in to "${serverName}" (invalid_grant: ${detail}). Restart the server to sign in again.`;
    return `Signing in to "${serverName}" failed: ${sanitizeLine(err.code)}${detail ? ` (${detail})` : ''}.`;
  }
  return `Signing in to "${serverName}" failed: ${sanitizeLine(err instanceof Error ? err.message : String(err)).slice(0, MAX_DETAIL_CHARS)}`;
}

function duration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} minute${ms >= 120_000 ? 's' : ''}` : `${Math.round(ms / 1000)} s`;
}

/** Whether `err` is the server refusing the token (401), as the SDK reports it. */
function refusesToken(err: unknown): boolean {
  return httpStatus(err) === 401 || err instanceof loadSdk().UnauthorizedError;
}

/** Whether `wanted` names a scope that `held` lacks (a step-up worth signing in again for). */
function widens(wanted: string | null, held: string | undefined): boolean {
  const have = new Set((held ?? '').split(' ').filter(Boolean));
  return (wanted ?? '').split(' ').some((scope) => scope !== '' && !have.has(scope));
}
