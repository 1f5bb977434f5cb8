// OAuth sign-in, loaded at the launch of a remote (HTTP) server: the sign-in flow, the SDK
// provider over the stored credentials, the grants without a browser and the sign-in errors. In
// the extension it is dist/auth.js (esbuild.mjs); its modules import each other directly and reach
// the SDK through loadSdk(). Elsewhere import them as types only and reach them through loadAuth()
// (load.ts). Outside it, tell a SignInError by isSignInError() (signInMark.ts).
export { OAuthSignIn } from './oauthSignIn';
export { SignInError } from './signInErrors';
