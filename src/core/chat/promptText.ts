// A prompt's messages (prompts/get) as the user reads them before anything reaches a model, and as
// the model then gets them: the same text. Each invisible, direction or control character is
// written as its escape in both, so an instruction hidden in a prompt is seen, not obeyed unseen;
// images, audio and binary resources are named with their size and not sent.
import type { PromptEntry, PromptMessagePart } from '../offers/offerTypes';
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

/** One message part as the model gets it: text as shown, what is not text named. */
export function partForModel(part: PromptMessagePart): string {
  switch (part.kind) {
    case 'text':
      return visibleText(part.text);
    case 'image':
    case 'audio':
      return `[${part.kind} ${visibleLine(part.mimeType)}, ${byteSize(part.bytes.length)}: not sent]`;
    case 'resource':
      return part.part.kind === 'text'
        ? `[resource ${visibleLine(part.part.uri)}]\n${visibleText(part.part.text)}`
        : `[resource ${visibleLine(part.part.uri)} (${visibleLine(part.part.mimeType ?? 'binary')}, ${byteSize(part.part.bytes.length)}): not sent]`;
    case 'resource_link':
      return `[resource link ${visibleLine(part.name)}: ${visibleLine(part.uri)}]`;
  }
}

/** Consecutive parts of the same role joined: the messages a model request carries. */
export function messagesForModel(parts: readonly PromptMessagePart[]): { readonly role: 'user' | 'assistant'; readonly text: string }[] {
  const out: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && last.role === part.role) last.text += `\n\n${partForModel(part)}`;
    else out.push({ role: part.role, text: partForModel(part) });
  }
  return out;
}

/** The heading line of a prompt: server, name, title. */
export function promptHeading(server: string, prompt: Pick<PromptEntry, 'name' | 'title'>): string {
  const title = prompt.title ? `: ${mdText(prompt.title)}` : '';
  return `**${mdText(server)}** › ${mdCode(prompt.name)}${title}`;
}

/**
 * The messages as Markdown: each as a quote of literal, escaped lines that wrap (nothing a server
 * writes is formatted, linked, hidden in an HTML comment or off screen), its role above it, what is
 * not text named with its size.
 */
export function promptMarkdown(parts: readonly PromptMessagePart[], description?: string): string {
  const out: string[] = [];
  if (description) out.push(`> ${mdText(visibleLine(description))}`);
  parts.forEach((part, i) => {
    const role = `${i + 1}. ${part.role}`;
    switch (part.kind) {
      case 'text':
        out.push(`**${role}**\n\n${mdQuote(visibleText(part.text))}`);
        break;
      case 'image':
      case 'audio':
        out.push(`**${role}**: ${part.kind} ${mdCode(part.mimeType)}, ${byteSize(part.bytes.length)} (not sent to the model)`);
        break;
      case 'resource':
        out.push(part.part.kind === 'text'
          ? `**${role}**: resource ${mdCode(part.part.uri)}, ${byteSize(Buffer.byteLength(part.part.text))}\n\n${mdQuote(visibleText(part.part.text))}`
          : `**${role}**: resource ${mdCode(part.part.uri)} ${mdCode(part.part.mimeType ?? 'binary')}, ${byteSize(part.part.bytes.length)} (not sent to the model)`);
        break;
      case 'resource_link':
        out.push(`**${role}**: resource link ${mdText(part.name)} ${mdCode(part.uri)}`);
        break;
    }
  });
  if (parts.length === 0) out.push('*(no messages)*');
  return out.join('\n\n');
}
