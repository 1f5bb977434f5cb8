// The gateway (`mcp-tool-host serve`, and the extension's own when turned on): reach it through
// loadGateway() (load.ts); elsewhere import these modules as types only. In the extension it is a
// lazy bundle of its own (dist/gateway.js, esbuild.mjs): activation never loads it.
export { startHttpGateway } from './httpGateway';
export { serveStdio } from './stdioGateway';
export { gatewayToolName, serverPrefixes } from './toolNames';
export { storedPins } from './pinCheck';
export { BackendRelay } from './backendRelay';
