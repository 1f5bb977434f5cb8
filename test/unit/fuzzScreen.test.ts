import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { sanitizeLine, sanitizeText, shownName, visibleJson, visibleLine } from '../../src/core/render/sanitize';
import { maskSecrets, safeText } from '../../src/core/render/secrets';
import { pinTool } from '../../src/core/policy/toolPin';
import { mergeDuplicateTools } from '../../src/core/tools/duplicateTools';

/** What must never reach the screen from server text: escapes, controls, bidi, zero-width, tags, fillers, separators. */
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- these are the characters, by code point, that must not show
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]|[\ufe00-\ufe0f]{2}/u;
/** Strings made of the characters attackers use, mixed with ordinary text. */
const hostile = fc.string({
  unit: fc.constantFrom(...'ab \n\t\r\u001b[]0;m\u0007\u200b\u200d\u202e\u2066\u2028\u2029\u061c\u3164\u00ad\ufe0f\ufe0e\ufe01\u{E0041}\u{E0141}\u{1F600}é'.split(/(?=[\s\S])/u)),
  maxLength: 60,
});

/** Property-based tests of the screen rules: whatever a server sends, none of it hides on screen. */
describe('fuzzing what reaches the screen', function () {
  this.timeout(60_000);
  const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

  it(`sanitised text keeps nothing hidden, and a line stays one line (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(hostile, (s) => {
        assert.doesNotMatch(sanitizeText(s), HIDDEN);
        const line = sanitizeLine(s);
        assert.doesNotMatch(line, HIDDEN);
        assert.doesNotMatch(line, /[\n\r\t]/);
        assert.equal(sanitizeText(sanitizeText(s)), sanitizeText(s), 'sanitising twice changes nothing');
      }),
      { numRuns: RUNS },
    );
  });

  it(`arguments and command lines show every hidden character as an escape, and mean the same (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(fc.dictionary(hostile, hostile, { maxKeys: 4 }), hostile, (args, command) => {
        const shown = visibleJson(args);
        assert.doesNotMatch(shown, HIDDEN);
        assert.deepEqual(JSON.parse(shown), JSON.parse(JSON.stringify(args)), 'the same value to a parser');
        assert.doesNotMatch(visibleLine(command), HIDDEN);
        assert.doesNotMatch(visibleLine(command), /[\n\r]/);
      }),
      { numRuns: RUNS },
    );
  });

  it(`names: none hides a character, and two different names never read alike (${RUNS} cases)`, () => {
    const spelled = fc.string({ unit: fc.constantFrom('a', '\\', 'u', '2', '0', 'B', 'n', '\n', '\u200b', '\u034f', '\u3000', ' '), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(hostile, spelled), fc.oneof(hostile, spelled), (a, b) => {
        assert.doesNotMatch(shownName(a), HIDDEN);
        assert.doesNotMatch(shownName(a), /\n|\r|\u034f|\u3000/);
        if (a !== b) assert.notEqual(shownName(a), shownName(b), `${JSON.stringify(a)} and ${JSON.stringify(b)} read alike`);
      }),
      { numRuns: RUNS },
    );
  });

  it(`a secret never shows, however the server splits it with hidden characters (${RUNS} cases)`, () => {
    const secret = 'sk-live-7f3a9c2e41b8';
    fc.assert(
      fc.property(fc.array(fc.nat(secret.length), { maxLength: 4 }), fc.array(fc.constantFrom('\u200b', '\u202e', '\u00ad', '\u{E0041}', '\u001b[0m'), { minLength: 4, maxLength: 4 }), hostile, (cuts, fillers, around) => {
        let split = secret;
        [...new Set(cuts)].sort((a, b) => b - a).forEach((at, i) => (split = split.slice(0, at) + fillers[i] + split.slice(at)));
        const shown = safeText(`${around}${split}${around}`, [secret]);
        assert.ok(!shown.includes(secret), JSON.stringify(shown));
        assert.ok(!maskSecrets(sanitizeText(split), [secret]).includes(secret));
        // Raw text passed on as the server sent it (a gateway's result) gives it away neither as it is nor once sanitised.
        const raw = maskSecrets(`${around}${split}${around}`, [secret]);
        assert.ok(!raw.includes(secret) && !sanitizeText(raw).includes(secret), JSON.stringify(raw));
      }),
      { numRuns: RUNS },
    );
  });

  it('twin tools and deep definitions: one tool per name, every pin computed (1,000 cases)', () => {
    const tool = fc.record({
      name: fc.constantFrom('a', 'b', 'c'),
      description: hostile,
      depth: fc.nat(3000),
      annotations: fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() }),
    });
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 6 }), (specs) => {
        const tools = specs.map((t) => {
          let schema: Record<string, unknown> = { type: 'string' };
          for (let i = 0; i < t.depth; i++) schema = { type: 'object', properties: { n: schema } };
          return { name: t.name, description: t.description, inputSchema: { type: 'object', properties: { n: schema } }, annotations: t.annotations } as Tool;
        });
        const { tools: merged } = mergeDuplicateTools(tools);
        assert.equal(new Set(merged.map((t) => t.name)).size, merged.length);
        for (const t of merged) assert.match(pinTool(t).hash, /^[0-9a-f]{64}$/);
      }),
      { numRuns: 1_000 },
    );
  });
});
