import * as assert from 'node:assert/strict';
import { callLine } from '../../src/core/chat/callReport';
import { callInvocationParts } from '../../src/core/chat/lmTools';
import { shortArgs } from '../../src/core/chat/markdown';

// Issue 31, "The screen and the disk": arguments (which a model or an interface may choose) and
// server-chosen names reach the screen in many places. The approval prompt shows every hidden,
// direction or control character as its escape (visibleJson); each place below must too, or a
// reader sees one thing where another is sent. The surfaces of src/vscode are in
// test/host/invisibleText.test.ts, the CLI's in test/integration/invisibleText.test.ts.

/** Characters that must never reach the screen raw. */
// eslint-disable-next-line no-control-regex -- these are the characters, by code point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{E0000}-\u{E007F}]/u;
/** Arguments a model could choose: a reversed file name, a zero-width space, an isolate, a tag character, a terminal escape. */
const ARGS = { p: '\u202etxt.exe', n: '\u200b\u2066\u{E0041}', c: '\u001b[2J' };
/** How each of them must read on screen (JSON's own escape of ESC is lower-case: compared without case). */
const ESCAPES = ['\\u202E', '\\u200B', '\\u2066', '\\uDB40\\uDC41', '\\u001B'];
/** A tool name that looks like "read_file" once its zero-width space is removed. */
const TWIN = 'read\u200b_file';

const surfaces: readonly (readonly [string, (args: Record<string, unknown>, tool: string) => string])[] = [
  ["chat: the answer's line for a call (callLine)", (args, tool) => callLine('srv', tool, args, 'done')],
  ['chat: the confirmation of a language-model tool call (callInvocationParts)', (args, tool) => Object.values(callInvocationParts({ server: 'srv', tool, args })).join(' ')],
  ['chat: the progress line of a call (shortArgs)', (args) => shortArgs(args, 400)],
];

describe('every surface shows hidden characters of arguments and names as escapes', () => {
  for (const [surface, show] of surfaces) {
    it(surface, () => {
      const shown = show(ARGS, TWIN);
      assert.doesNotMatch(shown, HIDDEN, `a hidden character reaches the screen raw: ${JSON.stringify(shown)}`);
      for (const escape of ESCAPES) assert.ok(shown.toLowerCase().includes(escape.toLowerCase()), `${escape} is not shown in ${JSON.stringify(shown)}`);
    });
  }

  it('chat: a tool name that differs from another only by an invisible character reads differently', () => {
    assert.notEqual(callLine('srv', TWIN, {}, 'done'), callLine('srv', 'read_file', {}, 'done'));
    assert.notEqual(callInvocationParts({ server: 'srv', tool: TWIN, args: {} }).tool, callInvocationParts({ server: 'srv', tool: 'read_file', args: {} }).tool);
  });
});
