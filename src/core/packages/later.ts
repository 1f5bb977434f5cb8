// The packages a running server needs, not activation (ARCHITECTURE.md "Limits"): the MCP SDK
// client (with zod), ajv and RE2. In the extension this door is part of dist/core.js, the session
// runtime (esbuild.mjs); reach it through loadSdk() (load.ts). Elsewhere these packages may only
// be imported as types (eslint.config.mjs).
export { auth, Client, ClientCredentialsProvider, CrossAppAccessProvider, DpopSession, IssuerMismatchError, OAuthError, PrivateKeyJwtProvider, ProtocolError, requestJwtAuthorizationGrant, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError, UriTemplate } from '@modelcontextprotocol/client';
export { default as Ajv } from 'ajv';
export { default as Ajv2019 } from 'ajv/dist/2019';
export { default as Ajv2020 } from 'ajv/dist/2020';
export { default as addFormats } from 'ajv-formats';
// A linear-time regex engine (RE2) for the `pattern`s of schemas that servers send (schemaValidator.ts).
export { RE2JS } from 're2js';
