import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { joinedLazily, piecesOf } from '../textPieces';
import { sanitizeInPieces, sanitizeLine, sanitizeText } from './sanitize';

/** A result as servers send it: current `content`, or the 2024-10-07 draft's `toolResult`. */
export type RawToolResult = CallToolResult | { toolResult: unknown };

/** What became of content handed to a saver: saved (with what the user should know of it, such as an inert extension), or left out and why. */
export type SavedFile = { readonly file: string; readonly note?: string } | { readonly leftOut: string };

/**
 * Where binary content goes so the user can open it (the extension's results folder; the CLI's
 * --files folder): a file, with what the user should know of it, or why it was left out.
 */
export type BinarySaver = (data: Buffer, mimeType: string, nameHint: string) => Promise<SavedFile>;

export interface RenderedResult {
  /** The result as readable text, sanitised, nothing cut. */
  readonly text: string;
  /** The same text in pieces, for a sink that shows a long result without joining it (longText.ts). */
  readonly pieces?: readonly string[];
  readonly isError: boolean;
  /** Files written for binary content. */
  readonly files: readonly string[];
  /** Resource links in the result, for "Open Resource Link..." (read through resources/read). */
  readonly links?: readonly { readonly uri: string; readonly name?: string; readonly mimeType?: string }[];
  /** How many image and audio blocks the result held (a model's budget counts each at a fixed cost). */
  readonly media?: number;
}

type Block = { type: string; [key: string]: unknown };

/** What a result whose "content" is not a list held (its first 2,000 characters): a server's error text is not lost. */
function malformedNote(content: unknown): string {
  return `(malformed result: "content" is not a list) ${sanitizeText((typeof content === 'string' ? content : String(JSON.stringify(content))).slice(0, 2000))}`;
}

/**
 * Turns a tool result into text for any sink: text blocks as they are, binary content saved to
 * disk and shown as its path, resource links and embedded resources described,
 * `structuredContent` pretty-printed, and a 2024-10-07 `toolResult` shown as JSON.
 */
export async function renderResult(result: RawToolResult, save?: BinarySaver): Promise<RenderedResult> {
  // The result comes as the server sent it (sdkClient.ts): any field may be missing or odd.
  const raw = result as { content?: unknown; toolResult?: unknown; structuredContent?: unknown; isError?: unknown };
  const content = Array.isArray(raw.content) ? raw.content.map(blockOf) : [];
  // A draft-era `{ toolResult }` (with no content, or the empty one an SDK gives it): show the toolResult itself.
  if (content.length === 0 && raw.toolResult !== undefined) {
    return { text: sanitizeText(JSON.stringify(raw.toolResult, null, 2)), isError: false, files: [] };
  }
  const pieces: string[] = [];
  const files: string[] = [];
  const links: { uri: string; name?: string; mimeType?: string }[] = [];
  const add = (part: string | readonly string[]) => {
    if (pieces.length > 0) pieces.push('\n');
    if (typeof part === 'string') pieces.push(part);
    else for (const piece of part) pieces.push(piece);
  };
  // The text block that holds the structured content as JSON (the spec asks tools to send both) shows it once, pretty-printed.
  const twin = raw.structuredContent === undefined ? -1 : textTwinOf(raw.structuredContent, content);
  let media = 0;
  for (const [i, block] of content.entries()) {
    if (block.type === 'image' || block.type === 'audio') media++;
    if (block.type === 'resource_link' && typeof block.uri === 'string') links.push({ uri: block.uri, name: optionalString(block.name), mimeType: optionalString(block.mimeType) });
    const note = annotationNote(block);
    if (i === twin) {
      add(note + prettyJson(raw.structuredContent));
      continue;
    }
    const rendered = await renderBlock(block, i, save, files);
    add(note ? [note, ...(typeof rendered === 'string' ? [rendered] : rendered)] : rendered);
  }
  if (raw.structuredContent !== undefined && twin < 0) {
    add(`structuredContent:\n${prettyJson(raw.structuredContent)}`);
  }
  // "content" that is not a list breaks the protocol: what it holds is shown, and the result counts as an error.
  const malformed = raw.content !== undefined && raw.content !== null && !Array.isArray(raw.content);
  if (malformed) add(malformedNote(raw.content));
  if (pieces.length === 0) pieces.push('(the tool returned no content)');
  return { text: joinedLazily(pieces), pieces, isError: raw.isError === true || malformed, files, links, ...(media > 0 && { media }) };
}

/** Texts longer than this are not parsed to compare with the structured content (shown then, as before). */
const COMPARED_TEXT_CHARS = 1 << 20;

/**
 * The index of the text block that holds `structured` serialised (equal as JSON values, whatever
 * the spacing), or -1: the spec asks a tool that returns structured content to send it as text too.
 */
function textTwinOf(structured: unknown, content: readonly Block[]): number {
  for (const [i, block] of content.entries()) {
    if (block.type !== 'text' || typeof block.text !== 'string' || block.text.length > COMPARED_TEXT_CHARS || !/^\s*[[{]/.test(block.text)) continue;
    try {
      if (isDeepStrictEqual(JSON.parse(block.text), structured)) return i;
    } catch {
      // not JSON, or too deep to compare: show the structured content on its own
    }
  }
  return -1;
}

/** A content block as sent, or an untyped one (rendered as unknown) when it is not an object with a string type. */
function blockOf(item: unknown): Block {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return { type: '' };
  const block = item as Record<string, unknown>;
  return typeof block.type === 'string' ? (block as Block) : { ...block, type: '' };
}

async function renderBlock(block: Block, index: number, save: BinarySaver | undefined, files: string[]): Promise<string | readonly string[]> {
  switch (block.type) {
    case 'text':
      return sanitizeInPieces(piecesOf(block, 'text') ?? [String(block.text ?? '')]);
    case 'image':
    case 'audio': {
      const mime = String(block.mimeType ?? 'application/octet-stream');
      const data = Buffer.from(String(block.data ?? ''), 'base64');
      const head = `[${block.type} ${sanitizeLine(mime)}, ${data.length} bytes]`;
      return save ? `${head} ${savedWords(await save(data, mime, `${block.type}-${index}`), files)}` : head;
    }
    case 'resource_link':
      return `[resource link] ${sanitizeText(String(block.name ?? ''))} ${sanitizeText(String(block.uri ?? ''))}${block.mimeType ? ` (${sanitizeText(String(block.mimeType))})` : ''}`;
    case 'resource': {
      const resource = (block.resource ?? {}) as { uri?: string; mimeType?: string; text?: string; blob?: string };
      const head = `[resource] ${sanitizeText(String(resource.uri ?? ''))}${resource.mimeType ? ` (${sanitizeText(resource.mimeType)})` : ''}`;
      if (typeof resource.text === 'string') return [`${head}\n`, ...(await sanitizeInPieces(piecesOf(resource, 'text') ?? [resource.text]))];
      if (typeof resource.blob === 'string' && save) {
        return `${head} ${savedWords(await save(Buffer.from(resource.blob, 'base64'), String(resource.mimeType ?? 'application/octet-stream'), `resource-${index}`), files)}`;
      }
      return head;
    }
    default: {
      // A type from a newer spec or a mistake: that block is shown as unknown, the others as usual.
      const type = sanitizeLine(block.type.length > 100 ? `${block.type.slice(0, 100)}…` : block.type);
      return type === '' ? '[unknown content block]' : `[unknown content block "${type}"]`;
    }
  }
}

const optionalString = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** "saved to FILE (why it is text)", or "not saved: why" (never silently); a saved file joins `files`. */
function savedWords(saved: SavedFile, files: string[]): string {
  if ('leftOut' in saved) return `not saved: ${saved.leftOut}`;
  files.push(saved.file);
  return `saved to ${saved.file}${saved.note ? ` (${saved.note})` : ''}`;
}

/** Content annotations (audience, priority), shown before the block they describe. */
function annotationNote(block: Block): string {
  const a = block.annotations as { audience?: unknown; priority?: unknown } | undefined;
  if (!a || typeof a !== 'object') return '';
  const notes: string[] = [];
  if (Array.isArray(a.audience) && a.audience.length) notes.push(`for ${a.audience.map((x) => sanitizeText(String(x))).join(' and ')}`);
  if (typeof a.priority === 'number') notes.push(`priority ${a.priority}`);
  return notes.length ? `(${notes.join(', ')}) ` : '';
}

/**
 * Pretty JSON, or a note when a hostile value is nested too deeply to print (stack overflow). Each
 * string is sanitised before it is written: JSON writes a control character as its escape, which
 * sanitising the text after would leave, and a secret split by one would then escape masking.
 */
function prettyJson(value: unknown): string {
  try {
    return sanitizeText(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? sanitizeText(item) : item), 2));
  } catch (err) {
    return `(not shown: ${err instanceof RangeError ? 'nested too deeply to display' : `cannot be printed: ${String(err)}`})`;
  }
}
