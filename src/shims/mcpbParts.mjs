// The parts of @anthropic-ai/mcpb that installing a bundle needs: the manifest schemas, the
// signature block and the OS trust check, and unpacking. Its package entry also loads its CLI (a
// prompt library, file walkers): esbuild.mjs points `@anthropic-ai/mcpb` here so dist/install.js
// holds only these modules. The relative paths skip the package's export map on purpose.
export { VERSIONED_MANIFEST_SCHEMAS } from '../../node_modules/@anthropic-ai/mcpb/dist/schemas/index.js';
export { extractSignatureBlock, verifyCertificateChain } from '../../node_modules/@anthropic-ai/mcpb/dist/node/sign.js';
export { unpackExtension } from '../../node_modules/@anthropic-ai/mcpb/dist/cli/unpack.js';
