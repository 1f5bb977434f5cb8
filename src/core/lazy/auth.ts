// OAuth sign-in (src/core/auth), loaded at the launch of a remote (HTTP) server: the sign-in flow,
// the SDK provider over the stored credentials, the grants without a browser and the sign-in
// errors. In the extension it is dist/auth.js (esbuild.mjs); elsewhere import these modules as
// types only and reach them through loadAuth(). Outside it, tell a SignInError by isSignInError().
export { OAuthSignIn } from '../auth/oauthSignIn';
export { SignInError } from '../auth/signInErrors';
