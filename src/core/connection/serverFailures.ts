import type { Transport } from '@modelcontextprotocol/client';
import { isSignInError } from '../auth/signInMark';
import { loadConnection } from './load';
import { ConfigError, HandshakeTimeoutError, McpHostError, ServerStartError } from '../errors';
import { explainHttpFailure } from '../transport/httpTransports';
import { StdioTransport } from '../transport/stdioTransport';
import { ServerState } from './serverState';

/** How a server process ended, as the transport saw it (stdio only). */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** What the transport knows of a server that went away: how its process ended and its last stderr lines. */
export interface ServerEnd {
  readonly exit?: ExitInfo;
  readonly stderr: readonly string[];
}

/** Reads the end of the server behind `transport` (an HTTP transport knows neither). */
export function serverEnd(transport: Transport | undefined): ServerEnd {
  return transport instanceof StdioTransport ? { exit: transport.exitInfo, stderr: [...transport.stderrTail] } : { stderr: [] };
}

/**
 * Every sentence that says a server failed, built here once: the log, the tree, the error
 * state and a failed call all show these.
 */
export namespace ServerFailure {
  /** "exited with code 1" / "was killed by SIGTERM". */
  function how(exit: ExitInfo): string {
    return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  }

  /**
   * The stderr line that says why (npm's error, a Node crash's exception: stderrReason.ts), else the
   * last; loaded with the first server (a failure with stderr comes after a start), not at activation.
   */
  function stderrReason(stderr: readonly string[]): string | undefined {
    return stderr.length ? loadConnection().stderrReason(stderr) : undefined;
  }

  function lastStderr(stderr: readonly string[]): string {
    const why = stderrReason(stderr);
    return why ? ` ${why}` : '';
  }

  /** The session ended on its own (a crash, or the server closed it). */
  export function closed(end: ServerEnd): string {
    return `The server ${end.exit ? how(end.exit) : 'closed the connection'}.`;
  }

  /** A call was under way when the process ended; undefined when the process did not end (rethrow the SDK's error). */
  export function duringCall(end: ServerEnd, cause: unknown): McpHostError | undefined {
    if (!end.exit) return undefined;
    return new McpHostError(`The server ${how(end.exit)} during the call.${lastStderr(end.stderr)}`, { cause });
  }

  /** `initialize` got no answer in time; the last stderr line often says why ("waiting for database..."). */
  export function handshakeTimeout(timeoutMs: number, stderr: readonly string[]): HandshakeTimeoutError {
    const said = stderrReason(stderr) ?? 'It wrote nothing to stderr.';
    return new HandshakeTimeoutError(`The server did not answer "initialize" within ${timeoutMs / 1000} s. ${said}`, stderr);
  }

  /**
   * Why a start failed, in one sentence: the process ended, the handshake timed out, the HTTP
   * endpoint refused (`url` is the shown URL of an HTTP launch), or the handshake itself failed.
   */
  export function start(err: unknown, end: ServerEnd, url: string | undefined): ServerStartError {
    if (err instanceof ServerStartError) return err;
    // Nothing was launched: the definition could not be resolved, or a policy refused it.
    if (err instanceof ConfigError) return new ServerStartError(err.message, [], { cause: err });
    if (end.exit) return new ServerStartError(`The server ${how(end.exit)} before finishing the MCP handshake.${lastStderr(end.stderr)}`, end.stderr);
    if (url !== undefined) return new ServerStartError(isSignInError(err) ? err.message : explainHttpFailure(err, url), [], { cause: err });
    const message = err instanceof Error ? err.message : String(err);
    return new ServerStartError(`The MCP handshake failed: ${message}`, end.stderr, { cause: err });
  }

  /** Automatic restarts stopped because crashes came too fast (RestartPolicy). */
  export function gaveUp(message: string, crashes: number): string {
    return `${message} It failed ${crashes} times within 3 minutes, so automatic restarts stopped; use Restart to try again.`;
  }

  /** A call or resource read reached a server without a live session. */
  export function notRunning(server: string, state: ServerState): McpHostError {
    return new McpHostError(`Server "${server}" is not running (${ServerState.label(state)}).`);
  }
}
