// What `@mcp` is handed at activation: the pool, the one CallPipeline, where its questions go.
import type { CallOutcome, CallPipeline } from '../../core/calls/callPipeline';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ChatAsks } from '../prompts/chatAsks';
import type { SharedOffers } from '../shared/sharedOffers';
import type { PromptConfirms } from './promptConfirms';

export interface ChatDeps {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  /** Where a server's request during a chat call is shown (in that chat response); without it, in a prompt. */
  readonly asks?: ChatAsks;
  /** Opens a called tool's interface (MCP Apps, appSessions.ts) and returns what sends it the outcome; without it, chat shows text only. */
  /** In a folder not trusted yet: the sentence naming the servers it defines (plain text), said instead of "no server". */
  readonly waitingServers?: () => string | undefined;
  /** A server's prompts and resources (`/prompt`, `/resource`); without them those commands say they are not available. */
  readonly offers?: SharedOffers;
  /** Where a prompt's Send / Discard buttons wait. */
  readonly confirms?: PromptConfirms;
  readonly openInterface?: (call: { server: string; tool: string; args: Record<string, unknown>; fromChat: true }) => Promise<((outcome: CallOutcome) => void) | undefined>;
}
