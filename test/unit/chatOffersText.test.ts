// What `@mcp /prompt` and `/resource` read from a line, and how a prompt's messages are shown and sent.
import * as assert from 'node:assert/strict';
import { parsePromptLine } from '../../src/core/chat/promptLine';
import { messagesForModel, planPrompt, promptMarkdown, visibleText } from '../../src/core/chat/promptText';
import { cutText, parseReadInput, readResultText } from '../../src/core/chat/resourceText';
import { MAX_RESULT_CHARS_FOR_MODEL } from '../../src/core/chat/callReport';

describe('chat: prompt lines, prompt messages, resource text', () => {
  it('reads /prompt lines: nothing (pick), SERVER.PROMPT with a dotted server, SERVER PROMPT, quoted values', () => {
    assert.deepEqual(parsePromptLine('  ', ['a']), { kind: 'pick' });
    assert.deepEqual(parsePromptLine('my.server.greet name=Ann', ['my', 'my.server']), { kind: 'named', server: 'my.server', prompt: 'greet', args: { name: 'Ann' } });
    assert.deepEqual(parsePromptLine('"my server" greet text="a b = c"', []), { kind: 'named', server: 'my server', prompt: 'greet', args: { text: 'a b = c' } });
    assert.equal(parsePromptLine('nosuch.greet', ['a']).kind, 'error');
    assert.equal(parsePromptLine('a.greet x=1 stray', ['a']).kind, 'error');
    assert.equal(parsePromptLine('a.greet x=1 x=2', ['a']).kind, 'error');
    assert.equal(parsePromptLine('a.greet x="open', ['a']).kind, 'error');
  });

  it('shows hidden characters as escapes, in what the user reads and in what the model gets alike', () => {
    const hidden = `Hi\u200b${String.fromCodePoint(0xe0049)}\n\u202eevil\t!`;
    assert.equal(visibleText(hidden), 'Hi\\u200B\\uDB40\\uDC49\n\\u202Eevil\t!');
    const parts = [
      { role: 'user' as const, kind: 'text' as const, text: hidden },
      { role: 'user' as const, kind: 'image' as const, mimeType: 'image/png', bytes: new Uint8Array(2048) },
      { role: 'assistant' as const, kind: 'text' as const, text: 'ok <!-- hidden -->' },
    ];
    const md = promptMarkdown(planPrompt(parts));
    // Quoted literal lines that wrap: every escape shown (its backslash escaped for Markdown), the breaks kept.
    assert.ok(md.includes('> Hi\\\\u200B\\\\uDB40\\\\uDC49  \n> \\\\u202Eevil \\!'), md);
    assert.ok(md.includes('> ok \\<\\!\\-\\- hidden \\-\\-\\>'), md);
    assert.ok(!md.includes('```'), 'no fenced block: a long line would scroll out of sight');
    assert.match(md, /image `image\/png`, 2\.0 KB \(not sent to the model: its bytes are not a PNG image/);
    assert.deepEqual(messagesForModel(planPrompt(parts)), [
      { role: 'user', pieces: [{ kind: 'text', text: 'Hi\\u200B\\uDB40\\uDC49\n\\u202Eevil\t!\n\n[image image/png, 2.0 KB: not sent: its bytes are not a PNG image, as its type image/png claims]' }] },
      { role: 'assistant', pieces: [{ kind: 'text', text: 'ok <!-- hidden -->' }] },
    ]);
  });

  it('nothing a prompt writes is formatted or linked, and its indentation shows', () => {
    const md = promptMarkdown(planPrompt([{ role: 'user', kind: 'text', text: '```\n**bold**\n  indented [x](command:y)' }]));
    assert.equal(md, '**1. user**\n\n> \\`\\`\\`  \n> \\*\\*bold\\*\\*  \n> \u00a0\u00a0indented \\[x\\]\\(command\\:y\\)');
  });

  it('reads #mcpResource input and caps what the model reads like a tool result', () => {
    assert.equal(parseReadInput({ uri: 'x' }).ok, false);
    assert.equal(parseReadInput({ server: 's', uri: '' }).ok, false);
    assert.deepEqual(parseReadInput({ server: 's' }), { ok: true, value: { server: 's', uri: undefined } });
    const long = 'x'.repeat(MAX_RESULT_CHARS_FOR_MODEL + 10);
    const text = readResultText('s', 'u://1', { kind: 'ok', bytes: long.length, parts: [{ kind: 'text', uri: 'u://1', text: long }] });
    assert.ok(text.startsWith('x'.repeat(MAX_RESULT_CHARS_FOR_MODEL)) && text.length < MAX_RESULT_CHARS_FOR_MODEL + 200);
    assert.match(text, /10 more characters not included/);
    assert.match(readResultText('s', 'u://1', { kind: 'denied', message: 'The user denied it.' }), /^Not read: the user denied/);
    assert.equal(cutText('abc', 3).cut, false);
  });
});
