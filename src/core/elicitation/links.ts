// Which links a server may have the user open, and the site each leads to: the Public Suffix List
// (tldts, ~130 KB) is not for activation, nor for every server start. In the extension it is part
// of dist/links.js (esbuild.mjs); elsewhere import linkCheck.ts as a type only and reach it
// through loadLinks() (load.ts).
export { checkUrl, isLoopback, MAX_HOST_CHARS, MAX_URL_CHARS } from './linkCheck';
