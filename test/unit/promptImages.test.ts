// Which images of a prompt reach the model as images, and how embedded texts are bounded: the
// mime type is a claim the first bytes must bear out, and images are capped in count and size.
import * as assert from 'node:assert/strict';
import { MAX_PROMPT_IMAGE_BYTES, MAX_PROMPT_IMAGES } from '../../src/core/chat/promptImages';
import { messagesForModel, planPrompt, promptMarkdown } from '../../src/core/chat/promptText';
import type { PromptMessagePart } from '../../src/core/offers/offerTypes';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (size = 64) => Uint8Array.from({ length: size }, (_, i) => PNG_HEAD[i] ?? 7);
const image = (mimeType: string, bytes: Uint8Array, role: 'user' | 'assistant' = 'user'): PromptMessagePart => ({ role, kind: 'image', mimeType, bytes });

describe('prompt images and embedded resources for the model', () => {
  it('sends a PNG, JPEG, GIF or WebP whose bytes are that type as an image, after the line that names it', () => {
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
    const gif = new TextEncoder().encode('GIF89a....');
    const webp = new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ');
    const plan = planPrompt([{ role: 'user', kind: 'text', text: 'look' }, image('image/png', png()), image('IMAGE/JPG', jpeg), image('image/gif', gif), image('image/webp; q=1', webp)]);
    const [message] = messagesForModel(plan);
    assert.deepEqual(message.pieces.map((p) => (p.kind === 'image' ? p.mimeType : p.text)), [
      'look\n\n[image image/png, 64 B: attached]', 'image/png',
      '[image IMAGE/JPG, 6 B: attached]', 'image/jpeg',
      '[image image/gif, 10 B: attached]', 'image/gif',
      '[image image/webp; q=1, 16 B: attached]', 'image/webp',
    ]);
    assert.match(promptMarkdown(plan), /image `image\/png`, 64 B \(the model gets it as an image\)/);
  });

  it('names, and does not send, an image whose bytes are not its type, a type models do not take, or an image from the assistant', () => {
    const html = new TextEncoder().encode('<svg onload="alert(1)"></svg>');
    const plan = planPrompt([image('image/png', html), image('image/svg+xml', html), image('image/png', png(), 'assistant')]);
    assert.equal(plan.filter((p) => p.image).length, 0);
    assert.deepEqual(plan.map((p) => p.notSent), [
      'its bytes are not a PNG image, as its type image/png claims',
      'models take PNG, JPEG, GIF and WebP images, not image/svg+xml',
      'models take images in the user\'s messages only',
    ]);
    assert.ok(messagesForModel(plan).every((m) => m.pieces.every((p) => p.kind === 'text')));
    assert.match(promptMarkdown(plan), /not sent to the model: its bytes are not a PNG image/);
  });

  it(`sends at most ${MAX_PROMPT_IMAGES} images of at most ${MAX_PROMPT_IMAGE_BYTES / 1024 / 1024} MiB each; the rest are named`, () => {
    const plan = planPrompt([image('image/png', png(MAX_PROMPT_IMAGE_BYTES + 1)), ...Array.from({ length: MAX_PROMPT_IMAGES + 2 }, () => image('image/png', png()))]);
    assert.match(plan[0].notSent ?? '', /larger than the 5 MiB an image may be/);
    assert.equal(plan.filter((p) => p.image).length, MAX_PROMPT_IMAGES);
    assert.match(plan[plan.length - 1].notSent ?? '', /at most 10 images/);
  });

  it('an embedded image resource goes as an image; other binary resources are named', () => {
    const plan = planPrompt([
      { role: 'user', kind: 'resource', part: { kind: 'binary', uri: 'pic://1', mimeType: 'image/png', bytes: png() } },
      { role: 'user', kind: 'resource', part: { kind: 'binary', uri: 'bin://1', mimeType: 'application/zip', bytes: new Uint8Array(10) } },
    ]);
    const pieces = messagesForModel(plan)[0].pieces;
    assert.deepEqual(pieces.map((p) => p.kind), ['text', 'image', 'text']);
    assert.match(pieces[2].kind === 'text' ? pieces[2].text : '', /\[resource bin:\/\/1 \(application\/zip, 10 B\): not sent: binary data is not sent\]/);
  });

  it('an embedded text resource is cut to the cap it is given, in what the user reads and what the model gets alike', () => {
    const text = 'word '.repeat(1000);
    const cap = (t: string) => (t.length > 100 ? { text: t.slice(0, 100), tokens: 20, tokensBefore: 1000 } : { text: t, tokens: 1 });
    const plan = planPrompt([{ role: 'user', kind: 'resource', part: { kind: 'text', uri: 'note://long', text } }, { role: 'user', kind: 'resource', part: { kind: 'text', uri: 'note://short', text: 'short' } }], cap);
    const sent = messagesForModel(plan)[0].pieces[0];
    assert.equal(sent.kind, 'text');
    const sentText = sent.kind === 'text' ? sent.text : '';
    assert.ok(sentText.length < 400, sentText);
    assert.match(sentText, /\[\.\.\. cut to ~20 of ~1000 tokens: the cap of an attachment\]/);
    assert.match(sentText, /\[resource note:\/\/short\]\nshort$/);
    assert.match(promptMarkdown(plan), /cut to \\~20 of \\~1000 tokens/);
    // Without a cap (Run Prompt opens the messages in a document, nothing is sent), the text is whole.
    const whole = promptMarkdown(planPrompt(plan.map((p) => p.part)));
    assert.ok(!whole.includes('cut to') && (whole.match(/word/g) ?? []).length === 1000);
  });
});
