// How code outside the sign-in bundle tells a SignInError: by a mark, not `instanceof`. The class
// lives in dist/auth.js (src/core/auth/later.ts) and the connection, in dist/extension.js, must
// recognise it without loading that bundle. `Symbol.for` is one symbol in every bundle, so this
// stateless module may be copied into both (esbuild.mjs).

/** Set on every SignInError (signInErrors.ts). */
export const SIGN_IN_ERROR: unique symbol = Symbol.for('mcp-tool-host.signInError');

/** Whether `err` is a SignInError: its message is a sentence for the user, shown as it is. */
export function isSignInError(err: unknown): err is Error {
  return err instanceof Error && (err as { [SIGN_IN_ERROR]?: unknown })[SIGN_IN_ERROR] === true;
}
