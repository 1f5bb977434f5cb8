// Which links a server may have the user open, and the site each leads to (issue 31), loaded when a
// server first asks to open one: the Public Suffix List (tldts, ~130 KB) is not for activation, nor
// for every server start. In the extension it is dist/links.js (esbuild.mjs); elsewhere import
// linkCheck.ts as a type only and reach it through loadLinks().
export { checkUrl, isLoopback, MAX_HOST_CHARS, MAX_URL_CHARS } from '../elicitation/linkCheck';
