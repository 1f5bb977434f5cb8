// Drives the @mcp handler directly, with a real model from the test-only provider (test/fakelm)
// and a recording ChatResponseStream, so a test can read every line the user would see.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { createChatHandler } from '../../src/vscode/chat/chatHandler';
import type { ToolLoopMetadata } from '../../src/vscode/chat/toolLoop';
import { until } from './wait';

export const EXTENSION_ID = 'mcp-tool-host.mcp-tool-host';
export const FAKE_LM_ID = 'mcp-tool-host-tests.fakelm';
/** Chat waits allow longer than the default: a model round and a tool call on a loaded machine. */
export const CHAT_WAIT_MS = 30_000;

/** One step of the fake model's script (see test/fakelm/README.md). */
export interface ScriptStep {
  readonly text?: string;
  readonly calls?: readonly { readonly tool: string; readonly input?: Record<string, unknown>; readonly exact?: boolean }[];
  readonly delayMs?: number;
}

/** What the fake model recorded of one request. */
export interface RecordedRequest {
  readonly toolNames: string[];
  readonly tools: { name: string; description: string }[];
  readonly messages: { role: 'user' | 'assistant'; text: string; calls: string[]; results: string[]; data: { mimeType: string; bytes: number; head: number[] }[] }[];
  readonly toolResults: string[];
}

export const setScript = (steps: readonly ScriptStep[]) => vscode.commands.executeCommand('mcpFakeLm.setScript', steps);
export const recorded = async () => (await vscode.commands.executeCommand<RecordedRequest[]>('mcpFakeLm.requests')) ?? [];

/** A ChatResponseStream that keeps what was streamed. */
export class RecordingStream {
  readonly markdownParts: string[] = [];
  readonly progressParts: string[] = [];
  readonly buttons: vscode.Command[] = [];
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  markdown(value: string | vscode.MarkdownString): void {
    this.markdownParts.push(typeof value === 'string' ? value : value.value);
  }
  progress(value: string): void {
    this.progressParts.push(value);
  }
  get text(): string {
    return this.markdownParts.join('');
  }
}

export type Turn = { prompt: string; command?: string; participant: string; references: []; toolReferences: [] } | { response: vscode.ChatResponseMarkdownPart[]; result: vscode.ChatResult; participant: string };

export interface AskOptions {
  readonly command?: string;
  readonly history?: readonly Turn[];
  readonly token?: vscode.CancellationToken;
  readonly model?: vscode.LanguageModelChat | null;
  /** The stream to record into (to read it while the request runs). */
  readonly stream?: RecordingStream;
}

/** Calls the participant's handler as the Chat view would, and returns what it streamed and its result. */
export async function ask(api: McpToolHostApi, prompt: string, options: AskOptions = {}): Promise<{ stream: RecordingStream; result: vscode.ChatResult; meta: ToolLoopMetadata }> {
  const model = options.model === null ? undefined : (options.model ?? (await fakeModel()));
  const handler = createChatHandler({ pool: api.pool, pipeline: api.pipeline, asks: api.chatAsks, openInterface: api.openInterface, offers: api.offers, confirms: api.promptConfirms });
  const stream = options.stream ?? new RecordingStream();
  const request = { prompt, command: options.command, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
  const context = { history: options.history ?? [] } as unknown as vscode.ChatContext;
  const token = options.token ?? new vscode.CancellationTokenSource().token;
  const result = (await handler(request, context, stream as unknown as vscode.ChatResponseStream, token)) ?? {};
  return { stream, result, meta: result.metadata as ToolLoopMetadata };
}

export async function fakeModel(): Promise<vscode.LanguageModelChat> {
  await vscode.extensions.getExtension(FAKE_LM_ID)?.activate();
  return until('the test model', async () => (await vscode.lm.selectChatModels({ vendor: 'mcpfake' }))[0], CHAT_WAIT_MS);
}

/** A stdio server entry running a copy of the demo server (or a fixture) with the host's own Node. */
export function serverEntry(extensionPath: string, extra: Record<string, unknown> = {}, script?: string): Record<string, unknown> {
  const file = script ? path.resolve(extensionPath, 'test/fixtures/servers', script) : path.join(extensionPath, 'dist', 'demo-server.js');
  const env = { ELECTRON_RUN_AS_NODE: '1', ...((extra.env as Record<string, string> | undefined) ?? {}) };
  return { command: process.execPath, args: [file], ...extra, env };
}

/** Waits until each named server runs and lists its tools. */
export const serversRunning = (api: McpToolHostApi, ...names: string[]) =>
  until(`${names.join(', ')} running`, () => names.every((n) => api.pool.get(n)?.state.kind === 'running' && api.pool.get(n)!.tools.length > 0), CHAT_WAIT_MS);

export const chatConfig = () => vscode.workspace.getConfiguration('mcpToolHost.chat');
export const setServers = (value: unknown) => vscode.workspace.getConfiguration('mcpToolHost').update('servers', value, vscode.ConfigurationTarget.Global);
