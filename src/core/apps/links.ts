// What a tool interface's CSP may name from where its server runs: the Public Suffix List decides
// a wildcard over a public suffix. In the extension it is part of dist/links.js, beside the link
// check (esbuild.mjs); elsewhere import cspOrigins.ts as a type only and reach it through loadCsp() (load.ts).
export { refusedSentence, screenCsp } from './cspOrigins';
