import type { Transport } from '@modelcontextprotocol/client';
import type { OAuthSignIn } from '../auth/oauthSignIn';
import type { ResolvedLaunch } from '../config/launch';
import type { ServerDefinition } from '../config/serverConfig';
import { loadAuth } from '../auth/load';
import { maskSecrets } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import { formatCommandLine } from '../transport/commandLine';
import type { HttpTransport } from '../transport/httpTransports';
import { HANDSHAKE_TIMEOUT_MS, type ConnectionDeps } from './connectionDeps';
import type { FactRecorder } from './connectionFacts';
import type { SdkClient } from './sdkClient';
import { loadConfigOptions } from '../config/load';
import { policyFiles } from '../config/policyPaths';
import { loadInstall } from '../install/load';
import { openSession } from './transportChoice';
import { loadConnection } from './load';
import type { Debugging } from './devDebugger';


/** What a launch shows of itself on its connection (serverView.ts). */
export interface LaunchView {
  /** The launch is resolved: its secrets and folder are the connection's from here on. */
  resolved(launch: ResolvedLaunch): void;
  /** The exact command line or URL about to run, secrets masked. */
  launching(shown: string): void;
  /** A prompt or a sign-in waits for the user (the row says so); undefined: it no longer waits. */
  waiting(message: string | undefined): void;
  /** The user declined the launch: the server stays stopped, the row says why. */
  declined(warning: string, rowMessage?: string): void;
}

/** What a launch needs of its connection. */
export interface LaunchHost {
  readonly definition: ServerDefinition;
  readonly deps: ConnectionDeps;
  readonly log: ServerLog;
  readonly facts: FactRecorder;
  readonly view: LaunchView;
  newClient(): SdkClient;
}

/**
 * One launch of a server, from resolving its launch to the end of its session: it owns what the
 * launch opened (the SDK client, the transport, the sign-in) and closes them in `dispose`. A newer
 * launch, a stop or the session's end disposes it; from then on `over` is true, and nothing it
 * started (a listing, a prompt's wait, a late handshake) may change the connection.
 */
export class LaunchAttempt {
  private readonly _ended = new AbortController();
  private _endReason: string | undefined;
  client: SdkClient | undefined;
  transport: Transport | undefined;
  signIn: OAuthSignIn | undefined;
  /** Dev mode's debugger of this launch, when its definition asks for one and the host attaches. */
  debugger: Debugging | undefined;

  /**
   * Resolves the launch, asks before it runs (a workspace-defined server), prepares OAuth for a
   * remote one, and runs the handshake (transportChoice.ts). Undefined: declined, or the attempt
   * ended meanwhile (what it opened is closed by `dispose`).
   */
  async open(host: LaunchHost, byUser: boolean): Promise<SdkClient | undefined> {
    const { definition, deps } = host;
    await loadConfigOptions().checkRegistryNames(policyFiles(), (patterns, url) => loadInstall().registryNameRuns(patterns, url));
    if (this.over) return undefined;
    let launch = await deps.resolveLaunch(definition);
    if (this.over) return undefined;
    // Dev mode's debugger: the inspector on loopback at a free port, added after the allowlist judged the launch as written.
    const debug = definition.spec.type === 'stdio' && definition.spec.dev?.debug ? loadConnection().debugging(definition.name, definition.spec.dev, deps.dev, host.log) : undefined;
    this.debugger = debug;
    if (debug) launch = await debug.launch(launch);
    if (this.over) return undefined;
    host.view.resolved(launch);
    const shown = maskSecrets(launch.type === 'http' ? launch.url : formatCommandLine(launch.launch.command, launch.launch.args), launch.secrets);
    // A prompt that waits for the user says so on the server's row, instead of "starting…".
    const answer = deps.confirmLaunch ? await deps.confirmLaunch(definition, shown, (message) => this.over || host.view.waiting(message), byUser) : true;
    if (this.over) return undefined;
    if (answer === false) return void host.view.declined('Not started: running this workspace-defined server was declined.');
    if (answer !== true) return void host.view.declined('Not started: you chose "Do not start" for this workspace-defined server, and its file changed since. Start it to be asked again.', answer.notAsked);
    host.view.waiting(undefined);
    this.signIn = launch.type === 'http' ? await loadAuth().OAuthSignIn.prepare(definition.name, launch.url, launch.headers, launch.oauth, deps.oauth, deps.log) : undefined;
    if (this.over) return undefined;
    host.view.launching(shown);
    host.facts.spawned = false;
    const { client } = await openSession(launch, shown, {
      onSpawn: () => host.facts.spawnedNow(),
      log: debug?.log ?? host.log,
      handshakeTimeoutMs: deps.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
      maxMessageBytes: deps.maxMessageBytes,
      rememberedEra: deps.eraMemory?.load(),
      stopDetached: deps.stopDetached,
      adoptEarly: deps.adoptEarly,
      signIn: this.signIn,
      newClient: () => host.newClient(),
      onAttempt: (attempt) => {
        this.client = attempt.client;
        this.transport = attempt.transport;
      },
      onWaiting: (message) => host.view.waiting(message),
    });
    // Stopped during the handshake: dispose has run, so the client it finished with is closed here.
    if (this.over) return void (await client.close());
    this.signIn?.accepted(); // the handshake went through with the token (if one was needed)
    debug?.attach();
    return client;
  }

  /** Why the host is about to end this launch (a dev-mode restart): its calls in flight fail with this sentence. */
  endWith(reason: string): void {
    this._endReason = reason;
  }
  get endReason(): string | undefined {
    return this._endReason;
  }

  /** Disposed: superseded, stopped, or its session ended. */
  get over(): boolean {
    return this._ended.signal.aborted;
  }

  /**
   * Sends a request of the session. When the server refuses its token (401: revoked, expired for
   * good, or it moved to another authorization server) or asks for more scope (403
   * insufficient_scope), the user is asked to sign in again, through the same prompt as the first
   * sign-in (OAuthSignIn), and the request is sent once more; a failure says why in a SignInError.
   */
  withSignIn<T>(send: () => Promise<T>, info: (message: string) => void): Promise<T> {
    const signIn = this.signIn;
    if (signIn) return this._signingIn(signIn, send, info);
    // Without a sign-in (every stdio server) there is nothing to retry: no async frame of its own (BENCHMARKS.md case 2).
    try {
      return send();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private async _signingIn<T>(signIn: OAuthSignIn, send: () => Promise<T>, info: (message: string) => void): Promise<T> {
    const transport = this.transport;
    let result: T;
    try {
      result = await send();
    } catch (err) {
      if (!transport || !(await signIn.recoverRequest(err, transport as HttpTransport, info))) throw err;
      result = await send().catch((again: unknown) => {
        throw signIn.refusedAgain(again);
      });
    }
    signIn.accepted();
    return result;
  }

  /** Ends the attempt: a sign-in that waits for the user is cancelled, the session and its transport closed; never throws. */
  async dispose(): Promise<void> {
    this._ended.abort();
    this.signIn?.dispose();
    this.signIn = undefined;
    // The debug session first: a debugger still attached keeps Node waiting for it, and reaches for a process that is gone.
    await this.debugger?.detach();
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    if (client) await client.close();
    // client.close() closes the transport; make sure a half-connected one (or the process group of a leader that is gone) is gone too.
    if (transport) await transport.close().catch(() => undefined);
  }
}
