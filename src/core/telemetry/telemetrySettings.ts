// Where telemetry goes and what it may carry, from VS Code's user settings or the CLI's
// environment. Read only when asked for: off by default, nothing here loads OpenTelemetry.

/** Telemetry that is on: where it is sent and for which servers arguments and results go with it. */
export interface TelemetrySettings {
  /** OTLP/HTTP endpoints of each signal (`<base>/v1/traces`, `<base>/v1/metrics`). */
  readonly tracesUrl: string;
  readonly metricsUrl: string;
  /** Sent with every export (an API key, say): never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  /** The servers whose calls' arguments and results are exported (secrets masked); none unless named. */
  readonly exportContent: ReadonlySet<string>;
}

export const DEFAULT_ENDPOINT = 'http://localhost:4318';
export const DEFAULT_SERVICE_NAME = 'mcp-tool-host';
/** The CLI's own opt-in: a stray OTEL_* variable in a CI job must not start exporting on its own. */
export const OPT_IN_VARIABLE = 'MCP_TOOL_HOST_OTEL';
/** The CLI's per-server opt-in to export arguments and results: server names, comma-separated. */
export const CONTENT_VARIABLE = 'MCP_TOOL_HOST_OTEL_CONTENT';

type Env = Readonly<Record<string, string | undefined>>;

/** Bad telemetry configuration: says which value and why; telemetry then stays off. */
export class TelemetrySettingsError extends Error {}

/**
 * The CLI's telemetry from the environment: on only with MCP_TOOL_HOST_OTEL=1 (and not
 * OTEL_SDK_DISABLED=true); the rest from the variables the OpenTelemetry specification defines.
 */
export function telemetryFromEnv(env: Env): TelemetrySettings | undefined {
  const optIn = env[OPT_IN_VARIABLE]?.trim().toLowerCase();
  if (optIn === undefined || optIn === '' || optIn === '0' || optIn === 'false') return undefined;
  if (optIn !== '1' && optIn !== 'true') throw new TelemetrySettingsError(`${OPT_IN_VARIABLE} must be 1 or true to export telemetry (or 0/false/unset for none); got "${env[OPT_IN_VARIABLE]}".`);
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || DEFAULT_ENDPOINT;
  return {
    tracesUrl: checkedUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || signalUrl(base, 'traces', 'OTEL_EXPORTER_OTLP_ENDPOINT'), 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
    metricsUrl: checkedUrl(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim() || signalUrl(base, 'metrics', 'OTEL_EXPORTER_OTLP_ENDPOINT'), 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'),
    headers: parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS ?? '', 'OTEL_EXPORTER_OTLP_HEADERS'),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
    exportContent: new Set((env[CONTENT_VARIABLE] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')),
  };
}

/**
 * VS Code's telemetry from the user's settings (a repository's settings are never read: a
 * workspace could otherwise send call data to an endpoint of its choosing). Header values may
 * name an environment variable, `${env:NAME}`, so a key need not be written in settings.json.
 */
export function telemetryFromSettings(settings: { readonly endpoint?: unknown; readonly headers?: unknown; readonly exportContent?: unknown }, env: Env): TelemetrySettings {
  const base = typeof settings.endpoint === 'string' && settings.endpoint.trim() !== '' ? settings.endpoint.trim() : DEFAULT_ENDPOINT;
  const headers: Record<string, string> = {};
  if (settings.headers !== undefined && (typeof settings.headers !== 'object' || settings.headers === null || Array.isArray(settings.headers))) {
    throw new TelemetrySettingsError('mcpToolHost.telemetry.headers must be an object of header names to values.');
  }
  for (const [name, value] of Object.entries((settings.headers ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new TelemetrySettingsError(`mcpToolHost.telemetry.headers: the value of "${name}" must be a string.`);
    headers[name] = withEnv(value, env, name);
  }
  const content = Array.isArray(settings.exportContent) ? settings.exportContent.filter((s): s is string => typeof s === 'string') : [];
  return {
    tracesUrl: signalUrl(base, 'traces', 'mcpToolHost.telemetry.endpoint'),
    metricsUrl: signalUrl(base, 'metrics', 'mcpToolHost.telemetry.endpoint'),
    headers,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
    exportContent: new Set(content),
  };
}

/** `${env:NAME}` replaced by the variable's value; a variable that is not set is an error (naming it, never a value). */
function withEnv(value: string, env: Env, header: string): string {
  return value.replace(/\$\{env:([^}]+)\}/g, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) throw new TelemetrySettingsError(`mcpToolHost.telemetry.headers: "${header}" names the environment variable ${name}, which is not set.`);
    return found;
  });
}

/** The OTLP/HTTP convention: the base endpoint with `/v1/<signal>` appended. */
function signalUrl(base: string, signal: 'traces' | 'metrics', from: string): string {
  return `${checkedUrl(base, from).replace(/\/+$/, '')}/v1/${signal}`;
}

function checkedUrl(url: string, from: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TelemetrySettingsError(`${from} must be an http:// or https:// URL; got "${url}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TelemetrySettingsError(`${from} must be an http:// or https:// URL; got "${url}".`);
  if (parsed.username !== '' || parsed.password !== '') throw new TelemetrySettingsError(`${from} must not hold credentials in the URL: put them in the headers.`);
  return url;
}

/** `key1=value1,key2=value2`, each part URL-encoded (the OpenTelemetry specification's format). */
export function parseOtlpHeaders(text: string, from: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    if (at <= 0) throw new TelemetrySettingsError(`${from}: each entry must be key=value; one entry is not (values are not shown).`);
    try {
      headers[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      throw new TelemetrySettingsError(`${from}: an entry is not URL-encoded correctly (values are not shown).`);
    }
  }
  return headers;
}
