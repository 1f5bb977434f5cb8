// A server's "oauth" and "sandbox" options, read only when its configuration has one (most have
// none) and at its launch. Reach it through loadConfigOptions() (load.ts); elsewhere import these
// modules as types only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { oauthStrings, parseOAuthSettings, resolveOAuth } from './oauthConfig';
export { argumentFolders, describeSandbox, fromVsCode, parseSandbox, withDefaultSandbox } from './sandboxConfig';
export { checkRegistryNames, readAllowlists, refusalOf, recordRegistryNames, registryNameMatches, registryNamesToCheck, urlWithoutQuery } from './serverAllowlist';
export { launchPackages } from './launchPackages';
export { loadsCode } from './codeLoading';
export { parseDev } from './devConfig';
export { budgetWarnings, parseBudgets } from './budgetConfig';
