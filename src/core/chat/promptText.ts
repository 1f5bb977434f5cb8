// A prompt's messages (prompts/get) as the user reads them before anything reaches a model, and as
// the model then gets them: the same text. Each invisible, direction or control character is
// written as its escape in both, so an instruction hidden in a prompt is seen, not obeyed unseen;
// images the model may take go as images, the rest is named with its size and why it is not sent.
import type { PromptEntry, PromptMessagePart } from '../offers/offerTypes';
import { imageForModel, type ImageBudget } from './promptImages';
import { mdCode, mdQuote, mdText } from './markdown';
import { visibleLine } from '../render/sanitize';

/** Text with each hidden character as its escape, lines kept (tabs too: they are visible). */
export function visibleText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split('\t').map(visibleLine).join('\t'))
    .join('\n');
}

/** Bytes as people read them: 512 B, 12.3 KB, 4.0 MB. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Text cut for the model: the text kept, its tokens, and the tokens before the cut when it was cut. */
export interface CappedText {
  readonly text: string;
  readonly tokens: number;
  readonly tokensBefore?: number;
}

/**
 * One message part with what the model gets of it: an image sent as an image, an embedded text
 * cut to the cap, or the reason it is only named. The user reads this before anything is sent,
 * so what is shown and what is sent come from the same decision.
 */
export interface PlannedPart {
  readonly part: PromptMessagePart;
  /** Sent as an image of this type (the bytes are the part's own). */
  readonly image?: { readonly mimeType: string; readonly bytes: Uint8Array };
  /** An embedded text resource's text as sent, when `capText` cut it. */
  readonly cut?: CappedText;
  /** Why it is named instead of sent (images, audio and binary resources that do not go as images). */
  readonly notSent?: string;
}

/** The model gets images from the user only: the large model services refuse them in an assistant's turn. */
const ASSISTANT_IMAGE = 'models take images in the user\'s messages only';

/**
 * What the model gets of each part: images that pass `imageForModel` (type, bytes, size, count) as
 * images, embedded texts through `capText` when given (a prompt's resource weighs like an
 * attachment), everything else named.
 */
export function planPrompt(parts: readonly PromptMessagePart[], capText?: (text: string) => CappedText): PlannedPart[] {
  const budget: ImageBudget = { sent: 0 };
  const image = (part: PromptMessagePart, mimeType: string, bytes: Uint8Array): PlannedPart => {
    if (part.role !== 'user') return { part, notSent: ASSISTANT_IMAGE };
    const verdict = imageForModel(mimeType, bytes, budget);
    return 'why' in verdict ? { part, notSent: verdict.why } : { part, image: { mimeType: verdict.mimeType, bytes } };
  };
  return parts.map((part): PlannedPart => {
    switch (part.kind) {
      case 'text':
      case 'resource_link':
        return { part };
      case 'image':
        return image(part, part.mimeType, part.bytes);
      case 'audio':
        return { part, notSent: 'models here take no audio' };
      case 'resource': {
        const inner = part.part;
        if (inner.kind === 'binary') return inner.mimeType?.toLowerCase().startsWith('image/') ? image(part, inner.mimeType, inner.bytes) : { part, notSent: 'binary data is not sent' };
        if (!capText) return { part };
        const capped = capText(inner.text);
        return capped.tokensBefore !== undefined ? { part, cut: capped } : { part };
      }
    }
  });
}

/** An embedded resource's text as shown and sent: cut when the plan cut it, saying so. */
function embeddedText(planned: PlannedPart, text: string): string {
  if (!planned.cut) return visibleText(text);
  return `${visibleText(planned.cut.text)}\n[... cut to ~${planned.cut.tokens} of ~${planned.cut.tokensBefore} tokens: the cap of an attachment]`;
}

/** One part as text for the model: text as shown, what is not sent named. */
function partText(planned: PlannedPart): string {
  const { part } = planned;
  switch (part.kind) {
    case 'text':
      return visibleText(part.text);
    case 'image':
    case 'audio':
      return `[${part.kind} ${visibleLine(part.mimeType)}, ${byteSize(part.bytes.length)}: ${planned.image ? 'attached' : `not sent: ${planned.notSent}`}]`;
    case 'resource':
      if (part.part.kind === 'text') return `[resource ${visibleLine(part.part.uri)}]\n${embeddedText(planned, part.part.text)}`;
      return `[resource ${visibleLine(part.part.uri)} (${visibleLine(part.part.mimeType ?? 'binary')}, ${byteSize(part.part.bytes.length)}): ${planned.image ? 'attached' : `not sent: ${planned.notSent}`}]`;
    case 'resource_link':
      return `[resource link ${visibleLine(part.name)}: ${visibleLine(part.uri)}]`;
  }
}

/** A piece of a model message: text, or an image's bytes. */
export type ModelPiece = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'image'; readonly mimeType: string; readonly bytes: Uint8Array };

/** The messages a model request carries: consecutive parts of one role in one message; each image follows the line that names it. */
export function messagesForModel(plan: readonly PlannedPart[]): { readonly role: 'user' | 'assistant'; readonly pieces: ModelPiece[] }[] {
  const out: { role: 'user' | 'assistant'; pieces: ModelPiece[] }[] = [];
  for (const planned of plan) {
    const role = planned.part.role;
    let last = out[out.length - 1];
    if (!last || last.role !== role) out.push((last = { role, pieces: [] }));
    const previous = last.pieces[last.pieces.length - 1];
    const text = partText(planned);
    if (previous?.kind === 'text') last.pieces[last.pieces.length - 1] = { kind: 'text', text: `${previous.text}\n\n${text}` };
    else last.pieces.push({ kind: 'text', text });
    if (planned.image) last.pieces.push({ kind: 'image', ...planned.image });
  }
  return out;
}

/** The heading line of a prompt: server, name, title. */
export function promptHeading(server: string, prompt: Pick<PromptEntry, 'name' | 'title'>): string {
  const title = prompt.title ? `: ${mdText(prompt.title)}` : '';
  return `**${mdText(server)}** › ${mdCode(prompt.name)}${title}`;
}

/** What the user is told of a part that is not text: sent as an image, or why not. */
const verdict = (planned: PlannedPart) => (planned.image ? '(the model gets it as an image)' : `(not sent to the model: ${mdText(planned.notSent ?? '')})`);

/**
 * The messages as Markdown: each as a quote of literal, escaped lines that wrap (nothing a server
 * writes is formatted, linked, hidden in an HTML comment or off screen), its role above it, what is
 * not text named with its size and whether the model gets it.
 */
export function promptMarkdown(plan: readonly PlannedPart[], description?: string): string {
  const out: string[] = [];
  if (description) out.push(`> ${mdText(visibleLine(description))}`);
  plan.forEach((planned, i) => {
    const { part } = planned;
    const role = `${i + 1}. ${part.role}`;
    switch (part.kind) {
      case 'text':
        out.push(`**${role}**\n\n${mdQuote(visibleText(part.text))}`);
        break;
      case 'image':
      case 'audio':
        out.push(`**${role}**: ${part.kind} ${mdCode(part.mimeType)}, ${byteSize(part.bytes.length)} ${verdict(planned)}`);
        break;
      case 'resource':
        out.push(part.part.kind === 'text'
          ? `**${role}**: resource ${mdCode(part.part.uri)}, ${byteSize(Buffer.byteLength(part.part.text))}\n\n${mdQuote(embeddedText(planned, part.part.text))}`
          : `**${role}**: resource ${mdCode(part.part.uri)} ${mdCode(part.part.mimeType ?? 'binary')}, ${byteSize(part.part.bytes.length)} ${verdict(planned)}`);
        break;
      case 'resource_link':
        out.push(`**${role}**: resource link ${mdText(part.name)} ${mdCode(part.uri)}`);
        break;
    }
  });
  if (plan.length === 0) out.push('*(no messages)*');
  return out.join('\n\n');
}
