import * as assert from 'node:assert/strict';
import { checkUrl, ElicitationCompletions, isLoopback, MAX_URL_CHARS } from '../../src/core/elicitation/urlElicitation';
import { formFields, type FormField } from '../../src/core/elicitation/formElicitation';

const refusedBecause = (raw: unknown, why: RegExp) => {
  const checked = checkUrl(raw);
  assert.equal(checked.kind, 'refused', `${String(raw)} was offered`);
  if (checked.kind === 'refused') assert.match(checked.why, why);
  return checked;
};

describe('elicitation in URL mode: which links are offered', () => {
  it('refuses every scheme but https: (javascript:, data:, file:, vbscript:, ftp:, custom schemes)', () => {
    refusedBecause('javascript:alert(document.cookie)', /only https: links are opened, not javascript:/);
    refusedBecause('data:text/html,<script>alert(1)</script>', /not data:/);
    refusedBecause('file:///etc/passwd', /not file:/);
    refusedBecause('vbscript:msgbox(1)', /not vbscript:/);
    refusedBecause('ftp://example.com/x', /not ftp:/);
    refusedBecause('vscode://ms-vscode.remote/run?x', /not vscode:/);
    refusedBecause('JaVaScRiPt:alert(1)', /not javascript:/);
  });

  it('refuses http: to anything but this machine; allows it to localhost, 127.x and ::1', () => {
    refusedBecause('http://example.com/login', /http: link is opened only to this machine/);
    refusedBecause('http://localhost.evil.com/', /only to this machine/);
    refusedBecause('http://127.0.0.1.evil.com/', /only to this machine/);
    for (const ok of ['http://localhost:3000/cb', 'http://127.0.0.1:8080/x', 'http://[::1]:9/x', 'http://app.localhost/']) assert.equal(checkUrl(ok).kind, 'offered', ok);
    assert.ok(isLoopback('127.8.9.10') && !isLoopback('128.0.0.1') && !isLoopback('localhost.com'));
  });

  it('refuses a user name before the host (https://good.com@evil.com) and names the real site', () => {
    const checked = refusedBecause('https://good.com@evil.com/login', /user name before its host \("good\.com@…"\), which hides the real site, evil\.com/);
    assert.equal(checked.shown, 'https://good.com@evil.com/login');
    refusedBecause('https://user:pass@example.com/', /user name/);
    refusedBecause('https://accounts.google.com:443@evil.example/', /user name/);
  });

  it('refuses hidden characters, spaces, overlong and unparseable URLs, showing them escaped', () => {
    const hidden = refusedBecause('https://exa\tmple.com/', /spaces or hidden characters/);
    assert.equal(hidden.shown, 'https://exa\\u{9}mple.com/');
    refusedBecause('https://example.com/\u202Egnp.exe', /hidden characters/);
    refusedBecause('https://example.com/a b', /spaces/);
    refusedBecause('https://example.com/\u0000', /hidden/);
    const long = refusedBecause(`https://example.com/${'a'.repeat(MAX_URL_CHARS)}`, /characters long \(at most 2048\)/);
    assert.ok(long.shown.length <= 200);
    refusedBecause('not a url', /spaces/);
    refusedBecause('https://', /not a valid URL/);
    refusedBecause('https://exa%mple.com/', /not a valid URL/);
    refusedBecause('', /no URL/);
    refusedBecause(42, /no URL/);
    refusedBecause(undefined, /no URL/);
  });

  it('shows international domains in punycode and flags them (a look-alike of a known site)', () => {
    const checked = checkUrl('https://аррӏе.com/login'); // Cyrillic letters that look like "apple"
    assert.equal(checked.kind, 'offered');
    if (checked.kind !== 'offered') return;
    assert.match(checked.domain, /^xn--/);
    assert.ok(checked.punycode);
    assert.ok(checked.url.startsWith(`https://${checked.domain}/`));
    const plain = checkUrl('https://example.com/consent?x=1');
    assert.deepEqual(plain, { kind: 'offered', url: 'https://example.com/consent?x=1', domain: 'example.com', punycode: false });
  });

  it('normalises what it offers: a backslash cannot hide the host, a port that is not the default is part of the domain', () => {
    const checked = checkUrl('https://example.com\\@evil.com/');
    assert.equal(checked.kind, 'offered');
    if (checked.kind === 'offered') assert.equal(checked.domain, 'example.com');
    const port = checkUrl('https://example.com:8443/x');
    assert.equal(port.kind === 'offered' && port.domain, 'example.com:8443');
  });
});

describe('elicitation in URL mode: waiting for the server to say a page is done', () => {
  it('complete(id) ends that wait with true; an unknown id changes nothing', async () => {
    const completions = new ElicitationCompletions();
    const waiting = completions.wait('e1');
    assert.equal(completions.complete('other'), false);
    assert.equal(completions.complete('e1'), true);
    assert.equal(await waiting, true);
    assert.equal(completions.complete('e1'), false, 'a second completion is not a wait');
  });

  it('a wait ends false after its time, when the session closes, and when the same id is waited on again', async () => {
    const completions = new ElicitationCompletions();
    assert.equal(await completions.wait('slow', 10), false);
    const a = completions.wait('a');
    const again = completions.wait('b');
    const b = completions.wait('b');
    assert.equal(await again, false);
    completions.closeAll();
    assert.deepEqual(await Promise.all([a, b]), [false, false]);
  });

  it('holds at most 20 waits: the oldest ends first', async () => {
    const completions = new ElicitationCompletions();
    const first = completions.wait('w0');
    for (let i = 1; i <= 20; i++) void completions.wait(`w${i}`);
    assert.equal(await first, false);
    completions.closeAll();
  });
});

describe('elicitation forms: fields that look like credentials', () => {
  const fields = (properties: Record<string, unknown>): FormField[] => formFields({ type: 'object', properties }) as FormField[];

  it('flags a password, secret, token, API key, private key or credential in the name, title, description or format', () => {
    const flagged = fields({
      password: { type: 'string' },
      apiKey: { type: 'string' },
      gh: { type: 'string', title: 'GitHub Token' },
      k: { type: 'string', description: 'Paste your private key here' },
      c: { type: 'string', title: 'Cloud credential' },
      s: { type: 'string', description: 'The client secret' },
      f: { type: 'string', format: 'password' },
      w: { type: 'string', writeOnly: true },
      access_key: { type: 'string' },
      pin: { type: 'string', title: 'PIN' },
    });
    assert.deepEqual(flagged.filter((f) => !f.secret).map((f) => f.name), []);
  });

  it('leaves ordinary fields alone (passenger, tokenizer-free words, numbers and choices)', () => {
    const plain = fields({ passenger: { type: 'string' }, name: { type: 'string', title: 'Name' }, spin: { type: 'string' }, count: { type: 'integer', title: 'Tokens' }, pick: { type: 'string', enum: ['a'] } });
    assert.deepEqual(plain.filter((f) => f.secret).map((f) => f.name), []);
  });
});
