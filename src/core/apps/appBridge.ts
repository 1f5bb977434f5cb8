// The host side of one interface's conversation (MCP Apps, docs/mcp-apps.md): the ext-apps
// AppBridge, with no client of its own (nothing reaches the server but through our handlers), over a
// transport whose other end is a webview. A lazy leaf in dist/core.js (heavy.ts): it shares that
// bundle's one copy of the SDK, and imports nothing of ours at runtime.
import type { Transport } from '@modelcontextprotocol/client';

/** A message bigger than this (as JSON) from the interface is dropped. */
export const MAX_APP_MESSAGE_BYTES = 1024 * 1024;
/** Messages per second an interface may send; past it they are dropped (a flood must not stall the host). */
export const MAX_APP_MESSAGES_PER_SECOND = 50;
/** Tool calls of one interface that may wait or run at once; more are answered "busy". */
export const MAX_APP_CALLS_IN_FLIGHT = 4;
/** The longest `ui/message` text an interface may offer to the chat. */
export const MAX_APP_CHAT_MESSAGE_CHARS = 4_000;

type ToolResult = { content: { type: string; [key: string]: unknown }[]; isError?: boolean; structuredContent?: Record<string, unknown>; [key: string]: unknown };

/** What the interface may ask of the host: each answered by the host's own rules. */
export interface AppHostHandlers {
  /** A `tools/call` from the interface (the host runs it through the CallPipeline, origin 'app'). */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** `ui/open-link`: true when the user let it open. */
  openLink(url: string): Promise<boolean>;
  /**
   * `ui/message` (text only, joined, at most MAX_APP_CHAT_MESSAGE_CHARS): true when the user was
   * shown it. Only an interface opened from chat has this; elsewhere the capability is not declared.
   */
  message?(text: string): Promise<boolean>;
  /** `notifications/message` from the interface (into the server's log). */
  log(level: string, text: string): void;
  /** Something was dropped (too big, too many): said once per kind in the log. */
  dropped(why: string): void;
}

export interface AppBridgeOptions {
  readonly hostInfo: { readonly name: string; readonly version: string };
  readonly hostContext: Record<string, unknown>;
  /** Sends a message to the interface (the webview relays it into the frame). */
  readonly post: (message: unknown) => void;
  readonly handlers: AppHostHandlers;
}

/** One interface's conversation, as the host holds it. */
export interface AppConversation {
  /** A message from the interface (already parsed by the webview). Dropped past the caps. */
  receive(message: unknown): void;
  /** Resolves when the interface has initialised (tool input and result can be sent). */
  readonly initialized: Promise<void>;
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  sendToolResult(result: ToolResult): Promise<void>;
  sendToolCancelled(reason: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the host side of an interface's conversation (loads ext-apps' app-bridge on first use). */
export async function openAppConversation(options: AppBridgeOptions): Promise<AppConversation> {
  const { AppBridge } = await import('@modelcontextprotocol/ext-apps/app-bridge');
  const transport = new WebviewTransport(options.post, options.handlers.dropped);
  const { message } = options.handlers;
  const bridge = new AppBridge(null, { ...options.hostInfo }, { openLinks: {}, serverTools: {}, logging: {}, ...(message ? { message: { text: {} } } : {}) }, { hostContext: options.hostContext });
  let inFlight = 0;
  bridge.oncalltool = async (params) => {
    if (inFlight >= MAX_APP_CALLS_IN_FLIGHT) return { content: [{ type: 'text', text: 'The host is busy with this interface\'s earlier calls; try again.' }], isError: true };
    inFlight++;
    try {
      const args = typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : {};
      return (await options.handlers.callTool(String(params.name), args)) as never;
    } finally {
      inFlight--;
    }
  };
  bridge.onopenlink = async (params) => ((await options.handlers.openLink(String(params.url))) ? {} : { isError: true });
  bridge.onmessage = async (params) => {
    const text = messageText(params.content);
    return message && text && text.length <= MAX_APP_CHAT_MESSAGE_CHARS && (await message(text)) ? {} : { isError: true };
  };
  bridge.onloggingmessage = (params) => options.handlers.log(String(params.level), typeof params.data === 'string' ? params.data : JSON.stringify(params.data ?? null).slice(0, 4000));
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(transport);
  return {
    receive: (message) => transport.receive(message),
    initialized,
    sendToolInput: (args) => bridge.sendToolInput({ arguments: args }),
    sendToolResult: (result) => bridge.sendToolResult(result as never),
    sendToolCancelled: (reason) => bridge.sendToolCancelled({ reason }),
    close: async () => {
      try {
        await bridge.teardownResource({}, { timeout: 1_000 });
      } catch {
        // An interface that does not answer is closed anyway.
      }
      await bridge.close();
    },
  };
}

/** The text blocks of a `ui/message`, joined; undefined when it has none. */
function messageText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
  return texts.length ? texts.join('\n') : undefined;
}

/** An SDK transport whose far end is a webview: what the interface sends arrives through `receive`, capped. */
class WebviewTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private _closed = false;
  private _windowStart = 0;
  private _inWindow = 0;
  private readonly _said = new Set<string>();

  constructor(
    private readonly _post: (message: unknown) => void,
    private readonly _dropped: (why: string) => void,
  ) {}

  async start(): Promise<void> {}

  async send(message: unknown): Promise<void> {
    if (!this._closed) this._post(message);
  }

  async close(): Promise<void> {
    if (this._closed) return;
    this._closed = true;
    this.onclose?.();
  }

  receive(message: unknown): void {
    if (this._closed) return;
    const now = Date.now();
    if (now - this._windowStart >= 1_000) {
      this._windowStart = now;
      this._inWindow = 0;
    }
    if (++this._inWindow > MAX_APP_MESSAGES_PER_SECOND) return this._drop(`more than ${MAX_APP_MESSAGES_PER_SECOND} messages a second`);
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') return this._drop('a message that is not JSON-RPC 2.0');
    let size: number;
    try {
      size = JSON.stringify(message).length;
    } catch {
      return this._drop('a message that cannot be serialised');
    }
    if (size > MAX_APP_MESSAGE_BYTES) return this._drop(`a message over ${MAX_APP_MESSAGE_BYTES / 1024} KiB`);
    this.onmessage?.(message as never);
  }

  private _drop(why: string): void {
    if (this._said.has(why)) return;
    this._said.add(why);
    this._dropped(why);
  }
}
