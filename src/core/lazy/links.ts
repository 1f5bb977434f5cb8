// Which links a server may have the user open, and the site each leads to, and which origins a tool
// interface may reach, loaded when a server first asks to open a link or an interface
// opens: the Public Suffix List (tldts, ~130 KB) is not for activation, nor for every server start. In the extension it is dist/links.js (esbuild.mjs); elsewhere import
// linkCheck.ts as a type only and reach it through loadLinks().
export { checkUrl, isLoopback, MAX_HOST_CHARS, MAX_URL_CHARS } from '../elicitation/linkCheck';
// What a tool interface's CSP may name from where its server runs: the same list, for wildcards over a public suffix.
export { refusedSentence, screenCsp } from '../apps/cspOrigins';
