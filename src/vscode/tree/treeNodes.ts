import type { Tool } from '@modelcontextprotocol/client';
import type { ConfigError } from '../../core/errors';
import type { PromptEntry, ResourceEntry, TemplateEntry } from '../../core/offers/offerTypes';

/** A configured server (top level). */
export interface ServerNode {
  readonly kind: 'server';
  readonly server: string;
}

/** A tool under its server; `definition` is the tool as last listed when the row was built. */
export interface ToolNode {
  readonly kind: 'tool';
  readonly server: string;
  /** The tool's name, as `tools/call` needs it. */
  readonly tool: string;
  readonly definition: Tool;
  /** Unique among the server's tools even when a server lists a name twice. */
  readonly id: string;
}

/** A task the server runs for a call (TaskBoard), above the server's tools. */
export interface TaskNode {
  readonly kind: 'task';
  readonly server: string;
  readonly taskId: string;
  readonly id: string;
}

/** A line of text under a server: why it failed, or why it shows no tools. */
export interface MessageNode {
  readonly kind: 'message';
  readonly server: string;
  readonly text: string;
  readonly tone: 'error' | 'info';
  readonly id: string;
}

/** What a row under a broken or idle server offers to do about it. */
export type ServerAction = 'showLog' | 'restart' | 'runDoctor' | 'start' | 'openConfiguration' | 'openPolicy';

/** A clickable fix under a server ("Show Log", "Restart", "Run Doctor"...). */
export interface ActionNode {
  readonly kind: 'action';
  readonly server: string;
  readonly action: ServerAction;
}

/** A broken entry of the configuration (top level, beside the servers). */
export interface ConfigErrorNode {
  readonly kind: 'configError';
  readonly error: ConfigError;
  readonly id: string;
}

/** In a workspace not trusted yet whose files define servers: the way to trust it (top level, first). */
export interface TrustNode {
  readonly kind: 'trust';
}

/** What a running server offers besides tools, one row each under it. */
export type OfferGroup = 'resources' | 'templates' | 'prompts';

/** "Resources", "Resource Templates" or "Prompts" under a running server that offers them. */
export interface OfferGroupNode {
  readonly kind: 'offerGroup';
  readonly server: string;
  readonly group: OfferGroup;
  readonly id: string;
}

/** One resource, template or prompt under its group row. */
export type OfferNode = { readonly kind: 'offer'; readonly server: string; readonly id: string } & (
  | { readonly group: 'resources'; readonly entry: ResourceEntry }
  | { readonly group: 'templates'; readonly entry: TemplateEntry }
  | { readonly group: 'prompts'; readonly entry: PromptEntry }
  | { readonly group: 'cut'; readonly text: string }
);

/** Every row of the Tools view. Commands receive these as their first argument. */
export type TreeNode = ServerNode | ToolNode | TaskNode | MessageNode | ActionNode | ConfigErrorNode | TrustNode | OfferGroupNode | OfferNode;
