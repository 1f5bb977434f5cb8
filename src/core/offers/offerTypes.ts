import type { Disposable, Event } from '../events';
import type { CallPipeline } from '../calls/callPipeline';
import type { Approver, AuditLog, CallOrigin } from '../calls/ports';
import type { ServerPool } from '../connection/serverPool';
import type { InputRound, RelayedInput } from '../connection/eraClient';

// What a server offers besides tools (resources, resource templates, prompts, completion, its log
// level), as every surface sees it: listed to the end within limits, each entry checked, every read
// audited with its origin, what the server sent made safe to show. The classes that implement these
// are reached through loadOffers() (offers/load.ts); surfaces import this file as types only.

/** A resource as listed (`resources/list`): the server's strings, checked to be strings and cut to a sane length. */
export interface ResourceEntry {
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Bytes, as the server says (a claim: the read is capped whatever it says). */
  readonly size?: number;
}

/** A resource template (`resources/templates/list`) and the variables its RFC 6570 template names, in order. */
export interface TemplateEntry {
  readonly server: string;
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly variables: readonly string[];
}

export interface PromptArgumentEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt as listed (`prompts/list`). */
export interface PromptEntry {
  readonly server: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgumentEntry[];
}

/** A listing walked to its end, or as far as the limits let it go (`cut` says why it stopped, in words). */
export interface OfferList<T> {
  readonly items: readonly T[];
  readonly cut?: string;
}

/** One content item of a read: text made safe to show (the server's secrets masked), or bytes (a blob, decoded). */
export type ResourcePart =
  | {
      readonly kind: 'text';
      readonly uri: string;
      readonly mimeType?: string;
      readonly text: string;
      /** A long text also in the slices it was made safe in (their concatenation is `text`), for work that must not hold the event loop. */
      readonly pieces?: readonly string[];
    }
  | { readonly kind: 'binary'; readonly uri: string; readonly mimeType?: string; readonly bytes: Uint8Array };

export type ReadOutcome =
  | { readonly kind: 'ok'; readonly parts: readonly ResourcePart[]; readonly bytes: number }
  | { readonly kind: 'denied'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

/** A tool's interface as read: its contents as the server sent them (for the interface's own checks), or why not. */
export type InterfaceRead = { readonly kind: 'ok'; readonly contents: readonly Readonly<Record<string, unknown>>[] } | { readonly kind: 'failed'; readonly message: string };
export interface ReadRequest {
  readonly server: string;
  readonly uri: string;
  readonly origin: CallOrigin;
  /** The model asked for it (a language-model tool, `@mcp`): it goes through the approval a tool call would. */
  readonly byModel?: boolean;
  /** Who decides a read the model asked for, when not the pipeline's own approver (the gateway's client). */
  readonly approver?: Approver;
  /** The most bytes the read may bring (default: the resource size limit). */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

/** One message of a prompt's result, made safe to show: text as it will reach the model, with its invisible characters shown. */
export type PromptMessagePart =
  | { readonly role: 'user' | 'assistant'; readonly kind: 'text'; readonly text: string }
  | { readonly role: 'user' | 'assistant'; readonly kind: 'image' | 'audio'; readonly mimeType: string; readonly bytes: Uint8Array }
  | { readonly role: 'user' | 'assistant'; readonly kind: 'resource'; readonly part: ResourcePart }
  | { readonly role: 'user' | 'assistant'; readonly kind: 'resource_link'; readonly uri: string; readonly name: string };

export type PromptOutcome =
  | { readonly kind: 'ok'; readonly description?: string; readonly messages: readonly PromptMessagePart[] }
  | { readonly kind: 'failed'; readonly message: string };

/** A prompt whose rounds go back to the caller: also `input-required`, a round (secrets masked) the caller's own client answers. */
export type RelayedPromptOutcome = PromptOutcome | { readonly kind: 'input-required'; readonly round: InputRound };

export interface PromptRequest {
  readonly server: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly origin: CallOrigin;
  readonly signal?: AbortSignal;
}

/** What `completion/complete` completes: a prompt's argument, or a resource template's variable. */
export type CompletionRef = { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

export interface CompletionRequest {
  readonly server: string;
  readonly ref: CompletionRef;
  readonly argument: { readonly name: string; readonly value: string };
  /** The arguments already filled in, for a completion that depends on them. */
  readonly context?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** At most 100 values (the spec's cap), each a sanitised line; none when the server offers no completion or fails. */
export interface CompletionAnswer {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore: boolean;
}

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A server's resources and templates: listed, read, filled in, watched. */
export interface ResourceOffers extends Disposable {
  /** Fires with the server's name when its resources or templates changed (a re-listing after `list_changed`, a restart). */
  readonly onDidChange: Event<string>;
  resources(server: string): Promise<OfferList<ResourceEntry>>;
  templates(server: string): Promise<OfferList<TemplateEntry>>;
  read(request: ReadRequest): Promise<ReadOutcome>;
  /** A tool's interface (MCP Apps) for the call that opens it: audited and capped as a read, its contents as sent. */
  readInterface(request: { readonly server: string; readonly uri: string }): Promise<InterfaceRead>;
  /** The URI a template gives for these values (each value percent-encoded as RFC 6570 says), or why not. */
  expand(template: TemplateEntry, values: Readonly<Record<string, string>>): { readonly uri: string } | { readonly problem: string };
  /** Calls `onUpdated` when the server says the resource changed (2025: resources/subscribe; 2026-07-28: subscriptions/listen) until disposed. */
  subscribe(server: string, uri: string, onUpdated: () => void): Disposable;
}

/** A server's prompts, completions and log level. */
export interface PromptOffers extends Disposable {
  /** Fires with the server's name when its prompts changed. */
  readonly onDidChange: Event<string>;
  prompts(server: string): Promise<OfferList<PromptEntry>>;
  get(request: PromptRequest): Promise<PromptOutcome>;
  /** `get` whose 2026-07-28 rounds that ask go back to the caller (a gateway's 2026-07-28 client answers them); without `input`, as `get`. */
  getRelayed(request: PromptRequest & { readonly input: RelayedInput | undefined }): Promise<RelayedPromptOutcome>;
  complete(request: CompletionRequest): Promise<CompletionAnswer>;
  /** 2025: `logging/setLevel`; 2026-07-28: the level sent with each request. Remembered across restarts. */
  setLogLevel(server: string, level: LogLevel): Promise<void>;
}

/**
 * What the offers need of the host that builds them (later.ts: `newResourceOffers(host)`,
 * `newPromptOffers(host)`), the extension or the CLI.
 */
export interface OfferHost {
  readonly pool: ServerPool;
  /** A read the model asked for is approved as a call would be (rules, grants, the approver). */
  readonly pipeline: CallPipeline;
  readonly audit?: AuditLog;
  /** The most bytes one read may bring (setting `mcpToolHost.maxResourceSize`); undefined: the default. */
  readonly maxReadBytes?: () => number | undefined;
}
