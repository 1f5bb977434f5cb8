import { McpHostError } from '../errors';

/**
 * The server answered 401 but publishes no OAuth metadata (neither RFC 9728 protected resource
 * metadata nor RFC 8414 authorization server metadata): it wants credentials we cannot obtain
 * by signing in, so the user must configure them ("headers").
 */
export class OAuthUnsupportedError extends McpHostError {
  readonly status = 401;
  constructor(options?: { cause?: unknown }) {
    super('The server answered 401 Unauthorized and publishes no OAuth metadata.', options);
  }
}

/** Signing in to a server failed, was denied, timed out or was cancelled; the message says which and what to do. */
export class SignInError extends McpHostError {}
