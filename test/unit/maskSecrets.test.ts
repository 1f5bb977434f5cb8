import * as assert from 'node:assert/strict';
import { sanitizeText } from '../../src/core/render/sanitize';
import { MASK, MAX_MASK_DEPTH, maskDeep, maskSecrets } from '../../src/core/render/secrets';

const SECRET = 'sk-supersecret-0123456789';
/** Whether the text gives the secret away: as it is, or once sanitised (what a reader, or a model, makes of it). */
const givesAway = (text: string) => text.includes(SECRET) || sanitizeText(text).includes(SECRET);
const cut = (filler: string, at = 5) => SECRET.slice(0, at) + filler + SECRET.slice(at);

describe('masking a server\'s secrets in raw text (maskSecrets), hidden characters or not', () => {
  it('masks a secret split by a zero-width space, soft hyphen, BOM, tag character, direction mark or escape sequence', () => {
    for (const filler of ['\u200b', '\u00ad', '\ufeff', String.fromCodePoint(0xe0041), '\u202e', '\u2066', '\u001b[31m', '\u200b\u00ad\ufeff']) {
      const masked = maskSecrets(`before ${cut(filler)} after`, [SECRET]);
      assert.ok(!givesAway(masked), JSON.stringify(masked));
      assert.equal(masked, `before ${MASK} after`);
    }
  });

  it('masks a secret split at several places, or split in one place and whole in another, or two secrets', () => {
    const twice = `${SECRET.slice(0, 3)}\u200b${SECRET.slice(3, 9)}\u00ad${SECRET.slice(9)}`;
    assert.equal(maskSecrets(`${twice} and ${SECRET}`, [SECRET]), `${MASK} and ${MASK}`);
    const other = 'ghp_other-token-abcdef';
    const masked = maskSecrets(`${cut('\ufeff')} ${other.slice(0, 4)}\u200b${other.slice(4)}`, [SECRET, other]);
    assert.equal(masked, `${MASK} ${MASK}`);
  });

  it('hides no secret behind any single character that sanitising takes out (every code unit, and the tag and selector planes)', () => {
    const astral = [0xe0000, 0xe0001, 0xe0041, 0xe007f, 0xe0100, 0xe01ef].map((c) => String.fromCodePoint(c));
    for (let unit = 0; unit <= 0xffff; unit++) {
      const masked = maskSecrets(cut(String.fromCharCode(unit)), [SECRET]);
      if (givesAway(masked)) assert.fail(`U+${unit.toString(16).padStart(4, '0')}: ${JSON.stringify(masked)}`);
    }
    for (const c of astral) assert.ok(!givesAway(maskSecrets(cut(c), [SECRET])), JSON.stringify(c));
  });

  it('leaves text as it was where no secret hides: plain text, text with hidden characters elsewhere, CRLF text', () => {
    const plain = 'line one\r\nline two\ttabbed ünïcödé → ok';
    assert.equal(maskSecrets(plain, [SECRET]), plain);
    const hiddenElsewhere = `zero\u200bwidth and ${SECRET}\r\n\u001b[1mbold\u001b[0m`;
    assert.equal(maskSecrets(hiddenElsewhere, [SECRET]), `zero\u200bwidth and ${MASK}\r\n\u001b[1mbold\u001b[0m`);
    assert.equal(maskSecrets(cut('\u200b'), []), cut('\u200b'), 'no secrets: nothing to mask');
    assert.equal(maskSecrets(`a\u200bbc`, ['abc']), `a\u200bbc`, 'a secret under 4 characters is left, split or not');
  });

  it('masks a secret of several lines that the text has with CRLF line ends (sanitised, they are newlines)', () => {
    const pem = '-----BEGIN KEY-----\nMIIEvQIBADANBg\n-----END KEY-----';
    assert.equal(maskSecrets(`key:\r\n${pem.replace(/\n/g, '\r\n')}\r\n`, [pem]), `key:\n${MASK}\n`);
    assert.equal(maskSecrets('one\r\ntwo', [pem]), 'one\r\ntwo', 'CRLF text keeps its line ends where no secret spans them');
  });

  it('text in which a hidden secret was found loses its hidden characters, nothing else of it', () => {
    assert.equal(maskSecrets(`a\u200bb ${cut('\u00ad')} c\ufeffd`, [SECRET]), `ab ${MASK} cd`);
  });
});

describe('masking every string of a value a server sent (maskDeep)', () => {
  it('masks every string at any depth, keys too, hidden or whole; numbers, booleans and null as they were', () => {
    const value = { a: SECRET, list: [1, true, null, cut('\u200b'), { [`k-${SECRET}`]: [`deep ${cut('\u00ad')}`] }], n: 2 };
    assert.deepEqual(maskDeep(value, [SECRET]), { a: MASK, list: [1, true, null, MASK, { [`k-${MASK}`]: [`deep ${MASK}`] }], n: 2 });
  });

  it('gives up (undefined) on a value nested deeper than its bound, rather than pass on what it did not read', () => {
    let deep: unknown = SECRET;
    for (let i = 0; i < MAX_MASK_DEPTH + 1; i++) deep = { d: deep };
    assert.equal(maskDeep(deep, [SECRET]), undefined);
    let fits: unknown = SECRET;
    for (let i = 0; i < MAX_MASK_DEPTH; i++) fits = [fits];
    assert.ok(!JSON.stringify(maskDeep(fits, [SECRET])).includes(SECRET));
  });

  it('keeps a key "__proto__" a key, and without secrets returns the value itself', () => {
    const value = JSON.parse(`{"__proto__": {"polluted": "${SECRET}"}}`) as Record<string, unknown>;
    const masked = maskDeep(value, [SECRET]) as Record<string, unknown>;
    assert.deepEqual(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value, { polluted: MASK });
    assert.equal(Object.getPrototypeOf(masked), Object.prototype);
    assert.equal(maskDeep(value, []), value);
  });
});
