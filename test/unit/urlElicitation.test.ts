import * as assert from 'node:assert/strict';
import { ElicitationCompletions } from '../../src/core/elicitation/urlElicitation';
import { checkUrl, isLoopback, MAX_URL_CHARS } from '../../src/core/elicitation/linkCheck';
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
    assert.deepEqual(plain, { kind: 'offered', url: 'https://example.com/consent?x=1', domain: 'example.com', site: 'example.com', ip: false, punycode: false });
  });

  it('names the site first: the registrable domain (Public Suffix List, its private part too), so a padded host reads as where it leads (issue 31)', () => {
    const padded = checkUrl(`https://login.microsoftonline.com.${'aaaaaaaaaa.'.repeat(18)}evil.xyz/oauth2/authorize`);
    assert.equal(padded.kind, 'offered');
    if (padded.kind === 'offered') assert.equal(padded.site, 'evil.xyz');
    const sites = (url: string) => {
      const checked = checkUrl(url);
      return checked.kind === 'offered' ? checked.site : `refused: ${checked.why}`;
    };
    assert.equal(sites('https://login.microsoftonline.com/common'), 'microsoftonline.com');
    assert.equal(sites('https://accounts.google.co.uk/'), 'google.co.uk');
    assert.equal(sites('https://evil.github.io/login'), 'evil.github.io', 'github.io is a public suffix: the site is the user\'s, not GitHub');
    assert.equal(sites('https://EVIL.xyz./'), 'evil.xyz');
    assert.equal(sites('https://example.com:8443/x'), 'example.com:8443');
    assert.equal(sites('https://co.uk/'), 'co.uk', 'a host that is itself a public suffix is shown whole');
    assert.equal(sites('http://localhost:3000/cb'), 'localhost:3000');
  });

  it('refuses a host name longer than DNS allows (253 characters, 63 a label): only a disguise is that long', () => {
    refusedBecause(`https://login.microsoftonline.com.${'a.'.repeat(120)}evil.xyz/`, /the host name is 2\d\d characters long \(at most 253\)/);
    refusedBecause(`https://${'a'.repeat(64)}.example.com/`, /a part of the host name is 64 characters long \(at most 63\)/);
    assert.equal(checkUrl(`https://${'a'.repeat(63)}.example.com/`).kind, 'offered');
  });

  it('an IP address is shown as it is (normalised), and flagged: no name says who runs it', () => {
    const ip = checkUrl('https://0xC0.0.2.1/x');
    assert.equal(ip.kind, 'offered');
    if (ip.kind === 'offered') assert.deepEqual([ip.site, ip.ip], ['192.0.2.1', true]);
    const v6 = checkUrl('https://[2001:db8::1]:8443/');
    assert.equal(v6.kind === 'offered' && `${v6.site} ${v6.ip}`, '[2001:db8::1]:8443 true');
    const local = checkUrl('http://127.0.0.1:8080/cb');
    assert.equal(local.kind === 'offered' && `${local.site} ${local.ip}`, '127.0.0.1:8080 false', 'this machine is no stranger');
    const name = checkUrl('https://192.0.2.1.example.com/');
    assert.equal(name.kind === 'offered' && `${name.site} ${name.ip}`, 'example.com false');
  });

  it('an international name: the site in punycode, its Unicode form beside it (never instead)', () => {
    const idn = checkUrl('https://аррӏе.com/login');
    assert.equal(idn.kind, 'offered');
    if (idn.kind === 'offered') assert.deepEqual([idn.site, idn.punycode, idn.unicode], ['xn--80ak6aa92e.com', true, 'аррӏе.com']);
    const sub = checkUrl('https://аррӏе.evil.com/');
    assert.equal(sub.kind === 'offered' && `${sub.site} ${sub.punycode}`, 'evil.com true');
  });

  it('a user name that imitates a site (https://login.microsoftonline.com@evil.xyz/) is refused, naming the real site', () => {
    refusedBecause('https://login.microsoftonline.com@evil.xyz/', /user name before its host \("login\.microsoftonline\.com@…"\), which hides the real site, evil\.xyz/);
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
