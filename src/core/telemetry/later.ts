// Telemetry through OpenTelemetry, loaded only when telemetry is on: the SDK and its OTLP exporters
// are not for activation. In the extension it is dist/telemetry.js (esbuild.mjs); elsewhere import
// these modules as types only and reach them through loadTelemetry() (load.ts).
export { startOtelTelemetry } from './otelExport';
export { watchServers } from './serverWatch';
export { TelemetrySettingsError, telemetryFromEnv, telemetryFromSettings, parseOtlpHeaders, OPT_IN_VARIABLE, CONTENT_VARIABLE } from './telemetrySettings';
export { UserTelemetry } from './userTelemetry';
