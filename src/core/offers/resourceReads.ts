import { randomUUID } from 'node:crypto';
import { argumentsHash } from '../calls/auditHash';
import { READ_TOOL_NAME } from '../calls/readApproval';
import type { ServerConnection } from '../connection/serverConnection';
import { ServerState } from '../connection/serverState';
import { SANITIZE_SLICE_CHARS, sanitizeInPieces, sanitizeLine, sanitizeText, shownName } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import type { CallOrigin } from '../calls/ports';
import { isObject } from './offerListing';
import type { InterfaceRead, OfferHost, ReadOutcome, ReadRequest, ResourcePart } from './offerTypes';

/**
 * The most one read may bring, in bytes (setting `mcpToolHost.maxResourceSize`): the transport's
 * own default cap on one message, which a read's answer must pass anyway (a larger resource needs
 * both raised), and above the 50 MiB a large document or image reaches.
 */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/** A URI as a part names it: one line, safe to show, and short. */
const MAX_SHOWN_URI = 2048;

/**
 * `resources/read` for a surface: approved first when the model asked for it (the pipeline's
 * approve stage), sent through the running connection, its answer checked item by item and capped
 * in bytes, text made safe to show with the server's secrets masked, blobs decoded, and an audit
 * record written with the origin and the decision whatever happened.
 */
export async function readResource(host: OfferHost, request: ReadRequest): Promise<ReadOutcome> {
  const decision = request.byModel ? 'asked by the model' : `opened by the user (${request.origin})`;
  return audited(host, request, decision, async (connection, audit) => {
    let uri = request.uri;
    if (request.byModel) {
      const approval = await host.pipeline.approveRead({ server: request.server, uri, origin: request.origin, approver: request.approver });
      audit.decision = approval.decision;
      if (approval.kind === 'denied') return { kind: 'denied', message: `Not read: ${approval.decision}.` };
      uri = audit.uri = approval.uri;
    }
    const max = request.maxBytes ?? host.maxReadBytes?.() ?? DEFAULT_MAX_READ_BYTES;
    return readFrom(connection, request.server, uri, max, request.signal);
  });
}

/**
 * A tool's interface (MCP Apps) read for the call that opens it, through the same audited read:
 * capped like any read, and its contents as the server sent them (the HTML untouched, `_meta` with
 * its CSP kept) for appResource.ts to check.
 */
export function readInterface(host: OfferHost, request: { readonly server: string; readonly uri: string }): Promise<InterfaceRead> {
  return audited(host, { ...request, origin: 'app' }, "the tool's interface, opened with its call", async (connection) => {
    const answer = await requestRead(connection, request.server, request.uri, host.maxReadBytes?.() ?? DEFAULT_MAX_READ_BYTES, undefined);
    return 'contents' in answer ? { kind: 'ok', contents: answer.contents.filter(isObject) } : answer;
  });
}

/** What an audited read gave: its outcome's kind and a message for one that failed. */
type Audited = { readonly kind: string; readonly message?: string };

/**
 * Runs one read with its audit record (the origin, the decision, the outcome) written whatever
 * happened; a throw becomes a failed read, and a failure's message is made safe with the server's
 * secrets masked.
 */
async function audited<T extends Audited>(host: OfferHost, request: { readonly server: string; readonly uri: string; readonly origin: CallOrigin }, decision: string, read: (connection: ServerConnection | undefined, audit: { decision: string; uri: string }) => Promise<T | { kind: 'failed'; message: string }>): Promise<T | { kind: 'failed'; message: string }> {
  const started = new Date();
  const connection = host.pool.get(request.server);
  const audit = { decision, uri: request.uri };
  let outcome: T | { kind: 'failed'; message: string };
  try {
    outcome = await read(connection, audit);
  } catch (err) {
    outcome = { kind: 'failed', message: `resources/read failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  host.audit?.append({
    time: started.toISOString(),
    callId: randomUUID().slice(0, 8),
    origin: request.origin,
    server: request.server,
    tool: READ_TOOL_NAME,
    argsHash: argumentsHash({ uri: audit.uri }),
    decision: audit.decision,
    durationMs: Date.now() - started.getTime(),
    outcome: outcome.kind,
  });
  return outcome.kind === 'ok' || outcome.message === undefined ? outcome : { ...outcome, message: maskSecrets(sanitizeText(outcome.message), connection?.secrets) };
}

/** The answer's contents, checked only to be a list and not over the cap by what they plainly hold: nothing of them is decoded or copied yet. */
async function requestRead(connection: ServerConnection | undefined, server: string, uri: string, max: number, signal: AbortSignal | undefined): Promise<{ readonly connection: ServerConnection; readonly contents: readonly unknown[] } | { kind: 'failed'; message: string }> {
  if (!connection) return { kind: 'failed', message: `No server named "${shownName(server)}" is configured.` };
  if (!ServerState.isRunning(connection.state)) return { kind: 'failed', message: `Server "${shownName(server)}" is not running.` };
  if (!connection.serverCapabilities.resources) return { kind: 'failed', message: `Server "${shownName(server)}" offers no resources (it did not declare the "resources" capability).` };
  const answer = await connection.request('resources/read', { uri }, { timeoutMs: connection.definition.timeoutSeconds * 1000, signal });
  const contents = answer.contents;
  if (!Array.isArray(contents)) return { kind: 'failed', message: 'The server answered resources/read without a "contents" list.' };
  // Sizes first, from what arrived, before anything is decoded or copied: past the cap nothing is.
  // A text's characters are a lower bound of its UTF-8 bytes (counting them exactly would scan it
  // in one task); its exact bytes are counted slice by slice as it is made safe, against the cap too.
  let atLeast = 0;
  for (const item of contents) atLeast += isObject(item) ? itemBytesAtLeast(item) : 0;
  if (atLeast > max) return overCap(atLeast, max);
  return { connection, contents };
}

async function readFrom(connection: ServerConnection | undefined, server: string, uri: string, max: number, signal: AbortSignal | undefined): Promise<ReadOutcome> {
  const answer = await requestRead(connection, server, uri, max, signal);
  if (!('contents' in answer)) return answer;
  const { contents } = answer;
  const parts: ResourcePart[] = [];
  const secrets = answer.connection.secrets;
  let bytes = 0;
  for (const [i, item] of contents.entries()) {
    const part = isObject(item) ? await partOf(item, uri, secrets, answer.connection) : 'it is not an object';
    if (typeof part === 'string') {
      answer.connection.log.warn(`resources/read ${sanitizeLine(uri).slice(0, MAX_SHOWN_URI)}: item ${i + 1} was left out: ${part}.`);
      continue;
    }
    bytes += part.bytes;
    if (bytes > max) return overCap(bytes, max);
    parts.push(part.part);
  }
  if (parts.length === 0 && contents.length > 0) return { kind: 'failed', message: 'The server answered resources/read with no item that could be read (see the server log).' };
  return { kind: 'ok', parts, bytes };
}

const overCap = (bytes: number, max: number): { kind: 'failed'; message: string } => ({ kind: 'failed', message: `The resource is ${mib(bytes)}${bytes > max ? '' : ' or more'}, over the ${mib(max)} a read may bring (setting mcpToolHost.maxResourceSize): nothing was kept.` });

/** The least an item brings in bytes: a text's length in characters, a blob's decoded length (from its base64 length, without decoding). */
function itemBytesAtLeast(item: Record<string, unknown>): number {
  if (typeof item.text === 'string') return item.text.length;
  if (typeof item.blob === 'string') return Math.floor((item.blob.length * 3) / 4);
  return 0;
}

/**
 * One content item as a part, or why it is left out. The item's `uri` is kept as data (shown,
 * never followed or trusted: it may name another server's scheme, `file:` or `javascript:`);
 * what was asked for is what the caller knows it by.
 */
async function partOf(item: Record<string, unknown>, asked: string, secrets: readonly string[], connection: ServerConnection): Promise<{ readonly part: ResourcePart; readonly bytes: number } | string> {
  const uri = typeof item.uri === 'string' ? shownUri(item.uri) : shownUri(asked);
  const mimeType = typeof item.mimeType === 'string' && item.mimeType.length <= 255 ? sanitizeLine(item.mimeType) : undefined;
  if (typeof item.blob === 'string') {
    const bytes = decodeBase64(item.blob);
    if (!bytes) return 'its blob is not base64';
    return { part: { kind: 'binary', uri, mimeType, bytes }, bytes: bytes.byteLength };
  }
  if (typeof item.text !== 'string') return 'it has neither text nor a blob';
  const text = item.text;
  // The pieces it arrived in, where the transport kept them: any slice of the whole (even its
  // first few characters) would flatten all of it in one task.
  const arrived = text.length > SANITIZE_SLICE_CHARS ? connection.textPiecesOf(item, 'text') : undefined;
  // Text that is really bytes (NULs, or mostly control characters) is kept as bytes: shown as text it would be noise, or hide things.
  if (looksBinary(arrived?.[0] ?? text)) {
    const bytes = Buffer.from(text, 'utf8');
    return { part: { kind: 'binary', uri, mimeType: mimeType ?? 'application/octet-stream', bytes }, bytes: bytes.byteLength };
  }
  if (text.length <= SANITIZE_SLICE_CHARS) {
    const safe = maskSecrets(sanitizeText(text), secrets);
    return { part: { kind: 'text', uri, mimeType, text: safe }, bytes: Buffer.byteLength(safe, 'utf8') };
  }
  // A long text: made safe, masked and counted slice by slice, the event loop free between slices,
  // and kept in its slices too for work of the same kind.
  const pieces = await maskInPieces(await sanitizeInPieces(arrived ?? [text]), secrets);
  let bytes = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    bytes += Buffer.byteLength(pieces[i], 'utf8');
  }
  // Concatenated, not joined: `+` makes a rope of the slices at once, where `join` copies 50 MiB in one task.
  let joined = '';
  for (const piece of pieces) joined += piece;
  return { part: { kind: 'text', uri, mimeType, text: joined, pieces }, bytes };
}

/**
 * The secrets masked in a text's pieces, a piece a task. A text without newlines is cut wherever its
 * chunks fell, so a secret may straddle two: the end of each piece that could begin one (a secret's
 * length less one) waits and is masked with the next.
 */
async function maskInPieces(pieces: string[], secrets: readonly string[]): Promise<string[]> {
  const longest = Math.max(0, ...secrets.filter((s) => s.length >= 4).map((s) => s.length));
  if (longest === 0) return pieces;
  const masked: string[] = [];
  let waiting = '';
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const piece = maskSecrets(waiting + pieces[i], secrets);
    if (i === pieces.length - 1) {
      masked.push(piece);
      break;
    }
    let keep = Math.max(0, piece.length - (longest - 1));
    // A surrogate pair stays in one piece: its halves apart would be encoded as two U+FFFD.
    if (keep > 0 && isHighSurrogate(piece.charCodeAt(keep - 1))) keep--;
    masked.push(piece.slice(0, keep));
    waiting = piece.slice(keep);
  }
  return masked;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** How much of a text is looked at to tell whether it is binary: enough to see, little to scan. */
const SNIFF_CHARS = 8192;

function looksBinary(text: string): boolean {
  const head = text.length > SNIFF_CHARS ? text.slice(0, SNIFF_CHARS) : text;
  if (head.includes('\u0000')) return true;
  let odd = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0xfffd) odd++;
  }
  return head.length > 0 && odd / head.length > 0.1;
}

/** The decoded bytes, or undefined when the text is not base64 (Buffer skips what it cannot read: the length tells). */
function decodeBase64(blob: string): Uint8Array | undefined {
  const trimmed = blob.replace(/\s+$/, '');
  const bytes = Buffer.from(trimmed, 'base64');
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  const expected = Math.floor((trimmed.length * 3) / 4) - padding;
  return bytes.byteLength === expected ? bytes : undefined;
}

function shownUri(uri: string): string {
  const line = sanitizeLine(uri);
  return line.length > MAX_SHOWN_URI ? `${line.slice(0, MAX_SHOWN_URI)}…` : line;
}

/** A size in the unit that shows it: a cap set low (a gateway's, a test's) reads as bytes, not "0 MiB". */
const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`);
