import type { ServerDefinition } from '../config/serverConfig';
import type { ResolvedLaunch } from '../config/launch';
import type { OAuthHost } from '../auth/ports';
import type { SchemaValidator } from '../tools/schemaValidator';
import type { ServerLog } from '../serverLog';
import type { Elicitor } from '../elicitation/formElicitation';
import type { Sampler } from './samplingRequests';
import type { RestartPolicy } from './restartPolicy';
import type { ToolCache } from './toolCatalog';
import type { ListingLimits } from './listingLimits';
import type { DevHost, DevUnavailable } from './devWatch';
import type { StdioTransportOptions } from '../transport/stdioTransport';

export const HANDSHAKE_TIMEOUT_MS = 30_000;

export interface ConnectionDeps {
  readonly log: ServerLog;
  readonly validator: SchemaValidator;
  readonly resolveLaunch: (def: ServerDefinition) => Promise<ResolvedLaunch>;
  readonly roots?: () => { uri: string; name?: string }[];
  /** Why the server gets these roots, or none (rootsOffer): written to its log at each start, shown in its tooltip. */
  readonly rootsWhy?: string;
  readonly clientVersion: string;
  readonly maxMessageBytes?: number;
  /** The most tools, and bytes of them, one listing may hold (settings maxToolsPerServer, maxToolListSize). */
  readonly listingLimits?: ListingLimits;
  /** How long `initialize` may take (default HANDSHAKE_TIMEOUT_MS). */
  readonly handshakeTimeoutMs?: number;
  /**
   * Stopping a stdio server returns at once and a detached process runs its shutdown sequence
   * (the CLI, which exits once its answer is out); otherwise a stop waits for the server to go.
   */
  readonly stopDetached?: boolean;
  /** The CLI: a stdio server it spawned already for this launch, while its commands loaded (StdioTransportOptions.adoptEarly). */
  readonly adoptEarly?: StdioTransportOptions['adoptEarly'];
  readonly toolCache?: ToolCache;
  /**
   * Asked before a launch runs (workspace-defined servers); false leaves the server stopped, and so
   * does `notAsked` (the user said "Do not start" before and did not ask since; `byUser` says a
   * start is the user's own, which asks again): its text is the server row's.
   */
  readonly confirmLaunch?: (def: ServerDefinition, shownLaunch: string, waiting: (message: string) => void, byUser: boolean) => Promise<boolean | { readonly notAsked: string }>;
  readonly restartPolicy?: RestartPolicy;
  /** Signing in to remote servers that require OAuth (browser, secrets); without it a 401 is a plain error. */
  readonly oauth?: OAuthHost;
  /** Answers a server's form in the middle of a call (elicitation); without it the host does not offer elicitation. */
  readonly elicit?: Elicitor;
  /** false: only forms are declared, not links (a host that passes forms on and opens no page: the CLI's gateway). */
  readonly elicitLinks?: boolean;
  /**
   * Has a model answer a server's sampling request in the middle of a call; without it the host does
   * not offer sampling. Only a surface that can pass it on has one (the gateway, to its client).
   */
  readonly sample?: Sampler;
  /**
   * Hears, once each, why the host declined a server's prompts on its own (outside its calls, past
   * a cap: promptGate.ts); the server's log has the same sentence. The CLI, whose server logs go
   * nowhere, prints it.
   */
  readonly promptsDeclined?: (sentence: string) => void;
  /**
   * The protocol era this launch spoke at its last start, as its answer to the 2026-07-28 probe
   * showed: a 2025-era server that refused the probe is not probed again; one that answered it is
   * given the probe's whole limit. An era chosen because the probe went unanswered is not kept.
   */
  readonly eraMemory?: EraMemory;
  /** Dev mode (a definition's `dev`): the editor's file watcher and debugger, or why there are none here (the log says it). */
  readonly dev?: DevHost | DevUnavailable;
}

/** Where a launch's protocol era is kept between starts (the extension: its state, for a day). */
export interface EraMemory {
  load(): 'modern' | 'legacy' | undefined;
  save(era: 'modern' | 'legacy'): void;
}
