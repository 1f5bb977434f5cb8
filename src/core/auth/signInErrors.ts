import { SIGN_IN_ERROR } from './signInMark';

// These classes load with the sign-in code (dist/auth.js), not at activation, so they extend
// Error rather than McpHostError: errors.ts holds classes and may not be copied into a second
// bundle (esbuild.mjs). Code outside that bundle tells a SignInError by isSignInError().

/**
 * The server answered 401 but publishes no OAuth metadata (neither RFC 9728 protected resource
 * metadata nor RFC 8414 authorization server metadata): it wants credentials we cannot obtain
 * by signing in, so the user must configure them ("headers").
 */
export class OAuthUnsupportedError extends Error {
  readonly status = 401;
  constructor(options?: { cause?: unknown }) {
    super('The server answered 401 Unauthorized and publishes no OAuth metadata.', options);
    this.name = 'OAuthUnsupportedError';
  }
}

/** Signing in to a server failed, was denied, timed out or was cancelled; the message says which and what to do. */
export class SignInError extends Error {
  readonly [SIGN_IN_ERROR] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInError';
  }
}
