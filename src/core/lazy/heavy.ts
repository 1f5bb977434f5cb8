// What loads with the first server, not at activation (ARCHITECTURE.md "Limits"): the MCP SDK
// client (with zod), ajv, and leaf modules of ours that only a starting or running server uses.
// Reach them through `loadHeavy()` (load.ts); elsewhere these modules may only be imported as
// types (eslint.config.mjs).
//
// In the extension this module is a bundle of its own, dist/core.js, so each module it holds must
// be in no other bundle: a second copy of a class breaks `instanceof`, a second copy of a module
// splits its state. Hence our modules here import nothing of ours (lint), and esbuild.mjs fails
// the build when a file is in both dist/core.js and dist/extension.js.
export { auth, Client, ClientCredentialsProvider, ProtocolError, CrossAppAccessProvider, IssuerMismatchError, OAuthError, PrivateKeyJwtProvider, requestJwtAuthorizationGrant, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
export { default as Ajv } from 'ajv';
export { default as Ajv2019 } from 'ajv/dist/2019';
export { default as Ajv2020 } from 'ajv/dist/2020';
export { default as addFormats } from 'ajv-formats';
// A linear-time regex engine (RE2) for the `pattern`s of schemas that servers send (schemaValidator.ts).
export { RE2JS } from 're2js';
// Ours, ~10 KB that activation would otherwise load (eslint.config.mjs LAZY_LEAVES).
export { LoopbackRedirectReceiver } from '../auth/loopbackReceiver';
export { LineFramer } from '../transport/lineFramer';
export { MessagePump } from '../transport/messagePump';
export { OffThreadJsonParser } from '../transport/offThreadJson';
export { stopTree } from '../transport/processTree';
// Used only once a server answered or a validator ran, when this bundle is loaded anyway.
export { answerHold, keepRawAnswers, rawAnswer } from '../connection/rawAnswers';
export { stderrReason } from '../connection/stderrReason';
export { paramHeaderValues, scanParamHeaders } from '../connection/paramHeaders';
export { oneLine, plainMessage } from '../tools/plainMessages';
export { callEndOf, checkValue, defaultAnswer, endedOrWithdrawn, formFields, whileAnswering } from '../elicitation/formElicitation';
// A tool's interface (MCP Apps): the host side of its conversation, at the first interface opened.
export { openAppConversation } from '../apps/appBridge';
export { declaresTasksExtension, followTask, openTaskSession, withoutEnvelope } from '../connection/taskSession';
export { ElicitationCompletions } from '../elicitation/urlElicitation';
// Read only when a server's configuration has "oauth" (most have none), and at its launch.
export { oauthStrings, parseOAuthSettings, resolveOAuth } from '../config/oauthConfig';
// Read only when a server's configuration has "sandbox", and at its launch.
export { argumentFolders, describeSandbox, fromVsCode, parseSandbox, withDefaultSandbox } from '../config/sandboxConfig';
export { sandboxFacts } from '../transport/sandbox';
export { explainToolFailure, installHint, sandboxCheck, sandboxDenial, wrapLaunch } from '../transport/sandbox';
// The skills extension (SEP-2640): the CLI's skills commands.
export { skillsOf } from '../connection/skills';
export { JwtBearerProvider } from '../auth/jwtBearerProvider';
export { dpopSessionOf } from '../auth/dpopKeys';
