/** Base of every error the core raises on purpose: one plain sentence for the user. */
export class McpHostError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }
}

/** A server definition in the configuration is unusable. */
export class ConfigError extends McpHostError {
  /** `shownName`: the name as it may be printed, where it comes from a file and was not checked yet (sanitize.ts shownName). */
  constructor(readonly serverName: string, message: string, shownName = serverName) {
    super(`Server "${shownName}": ${message}`);
  }
}

/** The administrator's policy refuses to run a server: the sentence says why, `policyFile` is the file that refused. */
export class PolicyRefusal extends ConfigError {
  constructor(serverName: string, message: string, readonly policyFile: string) {
    super(serverName, message);
  }
}

/** The server process could not be started or died before the handshake finished. */
export class ServerStartError extends McpHostError {
  constructor(message: string, readonly stderrTail: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The server did not finish `initialize` in time. */
export class HandshakeTimeoutError extends ServerStartError {}
