import * as vscode from 'vscode';
import type { ChatDeps } from './chatDeps';
import { callLine } from '../../core/chat/callReport';
import { mdCode, mdText } from '../../core/chat/markdown';
import { MAX_CHAT_TOOLS, namedTools, selectTools } from '../../core/chat/toolBudget';
import { chatCatalog, waitForStartingServers, type ChatCatalog, type ChatTool } from './chatCatalog';
import { asArguments, outcomePart, resultPart, runChatCall, type ChatCallRecord } from './chatCallStep';
import { modelBudget, readKeptResult } from './resultBudgets';
import { historyMessages, INSTRUCTIONS, pinnedServers } from './chatMessages';
import { readChatSettings, type ChatSettings } from './chatSettings';
import { chatAttachmentCap } from './attachmentText';
import { earlierAttachments, earlierAttachmentsLine } from './earlierAttachments';
import { OfferedTools, runSearch, type ChatSearchRecord } from './chatToolSearch';

/** What a free-text request did; the ChatResult's metadata (tests and follow-ups read it). */
export interface ToolLoopMetadata {
  readonly rounds: number;
  readonly calls: readonly ChatCallRecord[];
  /** The model names of the tools the first round offered (with `search_tools` when the request searches). */
  readonly offered: readonly string[];
  readonly leftOut: readonly string[];
  /** Whether the model got `search_tools` instead of every tool (more tools than `mcpToolHost.chat.searchThreshold`). */
  readonly searching: boolean;
  /** Each `search_tools` call, with what it found. */
  readonly searches: readonly ChatSearchRecord[];
  readonly stopped?: 'max-rounds' | 'cancelled' | 'no-model' | 'model-error';
}

const noModel = () =>
  vscode.l10n.t('No language model is available for chat. Pick one in the Chat view\'s model picker (for example, sign in to GitHub Copilot or install a language model provider), then ask again. `/servers`, `/tools` and `/call` work without a model.');

/**
 * A free-text request: the model gets the enabled tools (at most 128, the ones the user named
 * first) and the conversation; each tool call it asks for runs through the CallPipeline (origin
 * "chat": validation, approval, timeouts, output channel, audit), and its result goes back to the
 * model, until the model answers without calls or `maxRounds` is reached. The chat's cancellation
 * aborts calls in flight.
 */
export async function runToolLoop(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  /** What the user attached (`/resource`), each a user message before the request's own. */
  attachments: readonly string[] = [],
): Promise<vscode.ChatResult> {
  const model: vscode.LanguageModelChat | undefined = request.model;
  if (!model) return finish(stream, noModel(), { rounds: 0, calls: [], offered: [], leftOut: [], searching: false, searches: [], stopped: 'no-model' });
  const settings = readChatSettings();
  await waitForStartingServers(deps.pool, settings, token, (names) => stream.progress(vscode.l10n.t('Waiting for {0} to start...', names.join(', '))));
  const catalog = chatCatalog(deps.pool, settings, deps.pipeline.rules);
  // Past the threshold the model searches the tools instead of getting them all.
  const searching = catalog.tools.length > 0 && (settings.searchThreshold === 0 || catalog.tools.length > settings.searchThreshold);
  const budget = { prompt: request.prompt, pinnedServers: pinnedServers(context.history), max: searching ? MAX_CHAT_TOOLS - 1 : MAX_CHAT_TOOLS };
  const choice = searching ? namedTools(catalog.tools, budget) : selectTools(catalog.tools, budget);
  const offered = new OfferedTools(catalog, choice.selected, searching);
  const searches: ChatSearchRecord[] = [];
  const search = { catalog, settings, offered, searches, stream };
  const firstOffered = offered.names;
  announce(stream, catalog, choice.leftOut, searching ? settings.searchThreshold : undefined);
  const cap = chatAttachmentCap();
  const earlier = earlierAttachments(context.history, cap);
  const resentLine = earlierAttachmentsLine(earlier, cap);
  if (resentLine) stream.markdown(resentLine);

  const messages = [vscode.LanguageModelChatMessage.User(INSTRUCTIONS), ...historyMessages(context.history, earlier.messages), ...attachments.map((a) => vscode.LanguageModelChatMessage.User(a)), vscode.LanguageModelChatMessage.User(request.prompt)];
  const abort = new AbortController();
  const subscription = token.onCancellationRequested(() => abort.abort());
  const calls: ChatCallRecord[] = [];
  const meta = (rounds: number, stopped?: ToolLoopMetadata['stopped']): ToolLoopMetadata => ({ rounds, calls, offered: firstOffered, leftOut: choice.leftOut.map((t) => `${t.server}/${t.tool}`), searching, searches, stopped });
  try {
    for (let round = 1; ; round++) {
      // After `maxRounds` rounds of calls, or once the call budget is spent, the model must answer in words.
      const offerTools = round <= settings.maxRounds && calls.length < settings.maxToolCalls;
      let asked: vscode.LanguageModelToolCallPart[];
      try {
        asked = await streamRound(model, messages, offerTools ? offered.modelTools() : [], stream, token);
      } catch (err) {
        if (token.isCancellationRequested) return { metadata: meta(round, 'cancelled') };
        const message = err instanceof Error ? err.message : String(err);
        return finish(stream, vscode.l10n.t('The language model could not answer: {0}', mdText(message)), meta(round, 'model-error'), message);
      }
      if (token.isCancellationRequested) return { metadata: meta(round, 'cancelled') };
      if (asked.length === 0) return closing(stream, calls, meta(round));
      if (!offerTools) {
        const why = round > settings.maxRounds
          ? vscode.l10n.t('Stopped after {0} rounds of tool calls (setting `mcpToolHost.chat.maxRounds`): ask again to continue.', settings.maxRounds)
          : vscode.l10n.t('Stopped: this request reached its limit of {0} tool calls (setting `mcpToolHost.chat.maxToolCalls`); nothing more was sent.', settings.maxToolCalls);
        return finish(stream, why, meta(round, 'max-rounds'));
      }
      messages.push(vscode.LanguageModelChatMessage.Assistant(asked));
      const results: vscode.LanguageModelToolResultPart[] = [];
      for (const part of asked) {
        if (part.name === offered.searchName) results.push(runSearch(part, search));
        else if (part.name === offered.readName && offered.reading) results.push(runRead(deps, part, offered, model, stream));
        else results.push(await runAsked(deps, part, offered, settings, calls, stream, abort.signal, model));
      }
      stream.markdown('\n'); // ends the list of calls: the model's next words are a paragraph of their own
      messages.push(vscode.LanguageModelChatMessage.User(results));
      if (token.isCancellationRequested) {
        stream.markdown(`\n${vscode.l10n.t('Cancelled.')}\n`);
        return { metadata: meta(round, 'cancelled') };
      }
    }
  } finally {
    subscription.dispose();
  }
}

/** Sends one request and streams its text; returns the tool calls the model asked for. */
async function streamRound(model: vscode.LanguageModelChat, messages: vscode.LanguageModelChatMessage[], tools: vscode.LanguageModelChatTool[], stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolCallPart[]> {
  const response = await model.sendRequest(messages, { tools, justification: vscode.l10n.t('Answer with the tools of your MCP servers.') }, token);
  const asked: vscode.LanguageModelToolCallPart[] = [];
  let wrote = false;
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) {
      stream.markdown(part.value);
      wrote ||= part.value.length > 0;
    } else if (part instanceof vscode.LanguageModelToolCallPart) asked.push(part);
  }
  if (wrote && asked.length) stream.markdown('\n\n'); // the list of calls starts on a line of its own
  return asked;
}

/** One call the model asked for: mapped back to its server, counted against the limit, run, answered. */
async function runAsked(deps: ChatDeps, part: vscode.LanguageModelToolCallPart, offered: OfferedTools, settings: ChatSettings, calls: ChatCallRecord[], stream: vscode.ChatResponseStream, signal: AbortSignal, model: vscode.LanguageModelChat): Promise<vscode.LanguageModelToolResultPart> {
  const target = offered.get(part.name);
  if (!target) {
    calls.push({ server: '', tool: part.name, modelName: part.name, outcome: 'unknown-tool' });
    stream.markdown(callLine('?', part.name, part.input, vscode.l10n.t('no such tool was offered: not sent')));
    const search = offered.searchName ? ` or the tools "${offered.searchName}" found` : '';
    return resultPart(part.callId, `There is no tool named "${part.name}". Use only the tools offered${search}.`);
  }
  const args = asArguments(part.input);
  if (signal.aborted) {
    calls.push({ server: target.server, tool: target.tool, modelName: part.name, outcome: 'cancelled' });
    return resultPart(part.callId, 'The user cancelled this request; the call was not sent.');
  }
  if (calls.filter((c) => c.outcome !== 'unknown-tool' && c.outcome !== 'refused').length >= settings.maxToolCalls) {
    calls.push({ server: target.server, tool: target.tool, modelName: part.name, outcome: 'refused' });
    stream.markdown(callLine(target.server, target.tool, args, vscode.l10n.t('not sent: this request reached its limit of {0} tool calls (`mcpToolHost.chat.maxToolCalls`)', settings.maxToolCalls)));
    return resultPart(part.callId, `Not sent: this chat request reached its limit of ${settings.maxToolCalls} tool calls. Answer with what you have.`);
  }
  const outcome = await runChatCall(deps, { server: target.server, tool: target.tool, args }, stream, signal);
  calls.push({ server: target.server, tool: target.tool, modelName: part.name, outcome: outcome.kind });
  const answer = outcomePart(part.callId, outcome, modelBudget(deps.pool, target, offered.readName, roomOf(model)), stream);
  offered.reading ||= answer.cut;
  return answer.part;
}

/** One `read_result` call: a page or a search of a result cut earlier, shown as a line of its own. */
function runRead(deps: ChatDeps, part: vscode.LanguageModelToolCallPart, offered: OfferedTools, model: vscode.LanguageModelChat, stream: vscode.ChatResponseStream): vscode.LanguageModelToolResultPart {
  const text = readKeptResult(deps.pool, part.input, offered.readName, roomOf(model));
  const input = asArguments(part.input);
  const what = typeof input.pattern === 'string' ? vscode.l10n.t('searched a cut result for {0}', mdCode(input.pattern.slice(0, 80))) : vscode.l10n.t('read a cut result from offset {0}', mdCode(String(input.offset ?? 0)));
  stream.markdown(`- ${what}\n`);
  return resultPart(part.callId, text);
}

/** The most tokens one result may take of this model's context: half of what it accepts. */
function roomOf(model: vscode.LanguageModelChat): number | undefined {
  return model.maxInputTokens > 0 ? Math.floor(model.maxInputTokens / 2) : undefined;
}

/** Says up front which servers are down, whether the model searches the tools, and which tools did not fit the budget. */
function announce(stream: vscode.ChatResponseStream, catalog: ChatCatalog, leftOut: readonly ChatTool[], searchThreshold: number | undefined): void {
  const notes: string[] = [];
  for (const d of catalog.down) notes.push(vscode.l10n.t('Server **{0}** is not running ({1}): its tools are not available. Restart it from the MCP Tool Host view.', mdText(d.server), mdText(d.state)));
  if (catalog.tools.length === 0) notes.push(vscode.l10n.t('No MCP tool is available to chat right now (`/servers` shows why); the model answers without tools.'));
  if (searchThreshold !== undefined) {
    notes.push(searchThreshold === 0
      ? vscode.l10n.t('The model searches the {0} enabled tools and gets the ones it finds (setting `mcpToolHost.chat.searchThreshold`).', catalog.tools.length)
      : vscode.l10n.t('{0} tools are enabled, more than {1}: the model searches them and gets the ones it finds (setting `mcpToolHost.chat.searchThreshold`).', catalog.tools.length, searchThreshold));
  }
  if (leftOut.length && searchThreshold !== undefined) {
    notes.push(vscode.l10n.t('The servers you named have more tools than a request may offer: {0} of them are found by search only.', leftOut.length));
  } else if (leftOut.length) {
    const shown = leftOut.slice(0, 20).map((t) => mdCode(`${t.server}/${t.tool}`)).join(', ');
    const list = `${shown}${leftOut.length > 20 ? ', ...' : ''}`;
    notes.push(vscode.l10n.t('{0} tools are enabled, more than the {1} a request may offer: {2} left out ({3}). Name a server or `/use SERVER` to prefer its tools.', catalog.tools.length, MAX_CHAT_TOOLS, leftOut.length, list));
  }
  if (notes.length) stream.markdown(`${notes.map((n) => `> ${n}`).join('\n>\n')}\n\n`);
}

function closing(stream: vscode.ChatResponseStream, calls: readonly ChatCallRecord[], metadata: ToolLoopMetadata): vscode.ChatResult {
  const denied = calls.filter((c) => c.outcome === 'denied').length;
  if (denied) stream.markdown(`\n\n${denied === 1 ? vscode.l10n.t('You denied a call: nothing was sent for it.') : vscode.l10n.t('You denied {0} calls: nothing was sent for them.', denied)}\n`);
  return { metadata };
}

function finish(stream: vscode.ChatResponseStream, markdown: string, metadata: ToolLoopMetadata, error?: string): vscode.ChatResult {
  stream.markdown(`\n\n${markdown}\n`);
  return error ? { metadata, errorDetails: { message: error } } : { metadata };
}
