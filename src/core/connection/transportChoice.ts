import type { Transport } from '@modelcontextprotocol/client';
import type { OAuthSignIn } from '../auth/oauthSignIn';
import type { ResolvedLaunch } from '../config/launch';
import type { ServerLog } from '../serverLog';
import { createHttpTransport, shouldTrySse, type HttpKind, type HttpTransport } from '../transport/httpTransports';
import { DEFAULT_MAX_MESSAGE_BYTES, StdioTransport, type StdioTransportOptions } from '../transport/stdioTransport';
import type { SdkClient } from './sdkClient';
import { ServerFailure, serverEnd } from './serverFailures';

/** A client connected over a transport: one live session with a server. */
export interface Session {
  readonly client: SdkClient;
  readonly transport: Transport;
}

export interface SessionOptions {
  /** The connection's log (secrets masked). */
  readonly log: ServerLog;
  /** How long `initialize` may take. */
  readonly handshakeTimeoutMs: number;
  readonly maxMessageBytes?: number;
  /** OAuth for a remote launch; without it a 401 is a plain failure. */
  readonly signIn?: OAuthSignIn;
  readonly newClient: () => SdkClient;
  /**
   * Each attempt's client and transport as soon as they exist: a stop closes them, and a failed
   * start is explained from the transport that failed (serverFailures.ts).
   */
  readonly onAttempt: (attempt: Session) => void;
  /** A stdio server's process came to be. */
  readonly onSpawn?: () => void;
  /** The era the launch spoke at its last start (eraMemory.ts): a 2025-era one skips the 2026-07-28 probe. */
  readonly rememberedEra?: 'modern' | 'legacy';
  /** This start follows one where the server exited on the 2026-07-28 probe (HandshakeOptions.afterProbeExit). */
  readonly afterProbeExit?: boolean;
  /** A stdio server's stop is handed to a detached process (StdioTransportOptions.stopDetached). */
  readonly stopDetached?: boolean;
  /** A stdio server spawned already for this launch (StdioTransportOptions.adoptEarly). */
  readonly adoptEarly?: StdioTransportOptions['adoptEarly'];
  /** A sign-in waits for the user; the message says so. */
  readonly onWaiting: (message: string) => void;
}

/**
 * Picks the transport for a launch and runs the handshake: a child process over our stdio
 * transport, or a remote server over Streamable HTTP. A remote endpoint that refuses Streamable
 * HTTP gets one try over the older HTTP+SSE transport; one that asks for OAuth is connected
 * again once the provider is in place or the user signed in (OAuthSignIn).
 */
export async function openSession(launch: ResolvedLaunch, shown: string, options: SessionOptions, httpKind: HttpKind = 'streamable-http'): Promise<Session> {
  const transport = createTransport(launch, shown, httpKind, options);
  const client = options.newClient();
  options.onAttempt({ client, transport });
  const handshakeMs = options.handshakeTimeoutMs;
  try {
    await withTimeout(client.connect(transport, launch.type === 'http' ? 'http' : 'stdio', { handshakeMs, remembered: options.rememberedEra, afterProbeExit: options.afterProbeExit }), handshakeMs, () => ServerFailure.handshakeTimeout(handshakeMs, serverEnd(transport).stderr));
  } catch (err) {
    if (exitedOnProbe(transport, client, options)) {
      // An old server that dies on a protocol version it does not know: once more, in the 2025 era.
      options.log.warn(`The server exited on the 2026-07-28 probe (${serverEnd(transport).stderr.at(-1) ?? 'no stderr'}); starting it again in the 2025 era.`);
      await client.close();
      return openSession(launch, shown, { ...options, rememberedEra: 'legacy', afterProbeExit: true }, httpKind);
    }
    if (launch.type === 'http' && (await options.signIn?.recover(err, transport as HttpTransport, options.onWaiting))) {
      // The server wants OAuth: the provider is in place now, or the user just signed in. Connect again.
      await client.close();
      return openSession(launch, shown, options, httpKind);
    }
    if (launch.type !== 'http' || httpKind === 'sse' || !shouldTrySse(err)) throw err;
    options.log.info(`Streamable HTTP was refused (${(err as Error).message}); trying the HTTP+SSE transport.`);
    await client.close();
    return openSession(launch, shown, options, 'sse');
  }
  return { client, transport };
}

function createTransport(launch: ResolvedLaunch, shown: string, httpKind: HttpKind, options: SessionOptions): Transport {
  const log = options.log;
  if (launch.type === 'http') {
    log.info(`Connecting to ${shown} (${httpKind})`);
    const bound = { maxBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, onDropped: (sentence: string) => log.warn(sentence) };
    return createHttpTransport(httpKind, launch.url, launch.headers, bound, options.signIn?.provider);
  }
  const transport = new StdioTransport(launch.launch, {
    sandbox: launch.sandbox,
    maxMessageBytes: options.maxMessageBytes,
    onStderrLine: (line) => log.stderr(line),
    onWarning: (message) => log.warn(message),
    onSpawn: options.onSpawn,
    stopDetached: options.stopDetached,
    adoptEarly: options.adoptEarly,
  });
  log.info(`Starting: ${shown}${launch.launch.cwd ? ` (in ${launch.launch.cwd})` : ''}`);
  return transport;
}

/**
 * Whether a stdio server exited with the probe unanswered, after it was sent it: the probe is the
 * only thing the SDK sends until it is answered, so the server exited on it. A server that exited
 * before it was sent anything (a crash at its start) is not one, nor is a second start.
 *
 * Its 2025 era is then remembered, as a refusal of the probe would be (SdkClient.eraToRemember):
 * exiting is how such a server answers, and each start that probes it costs it a whole start. It is
 * remembered only once the second start, in the 2025 era, went through: a server that fails that
 * too crashed, and that says nothing of its era. A server that crashed at the probe by chance is
 * spoken to in the 2025 era until the memory expires (eraMemory.ts, a day), then probed again.
 */
function exitedOnProbe(transport: Transport, client: SdkClient, options: SessionOptions): boolean {
  return transport instanceof StdioTransport && !options.afterProbeExit && options.rememberedEra !== 'legacy' && transport.exitedAfterInput && client.probeUnanswered;
}

async function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
