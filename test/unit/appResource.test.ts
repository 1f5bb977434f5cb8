import * as assert from 'node:assert/strict';
import { APP_MIME_TYPE, AppResourceError, MAX_APP_HTML_BYTES, appCspOf, appDocumentOf, appReferenceOf, appServerPlace, contentSecurityPolicy, type AppServerPlace } from '../../src/core/apps/appResource';
import { refusedSentence, screenCsp } from '../../src/core/apps/cspOrigins';

const LOCAL: AppServerPlace = { kind: 'this-machine' };
const REMOTE: AppServerPlace = { kind: 'elsewhere', why: 'remote', origin: 'https://mcp.example.com' };

const html = (text: unknown, extra: Record<string, unknown> = {}) => [{ uri: 'ui://x/app.html', mimeType: APP_MIME_TYPE, text, ...extra }];

describe('a tool\'s interface (MCP Apps)', () => {
  it('finds _meta.ui.resourceUri, then the deprecated flat key; the nested one wins', () => {
    assert.deepEqual(appReferenceOf({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } }), { kind: 'app', uri: 'ui://a/b.html' });
    assert.deepEqual(appReferenceOf({ _meta: { 'ui/resourceUri': 'ui://flat' } }), { kind: 'app', uri: 'ui://flat' });
    assert.deepEqual(appReferenceOf({ _meta: { ui: { resourceUri: 'ui://nested' }, 'ui/resourceUri': 'ui://flat' } }), { kind: 'app', uri: 'ui://nested' });
    assert.deepEqual(appReferenceOf({}), { kind: 'none' });
    assert.deepEqual(appReferenceOf({ _meta: { ui: {} } }), { kind: 'none' });
  });

  it('refuses every URI that is not ui:// (javascript:, data:, https:, ui: without //, control characters, not a string)', () => {
    for (const uri of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'https://evil.example/app.html', 'ui:app', 'UI//x', 'ui://x\n<script>', 'ui://', 'ui://' + 'a'.repeat(3000), 42, { href: 'ui://x' }]) {
      const ref = appReferenceOf({ _meta: { ui: { resourceUri: uri } } });
      assert.equal(ref.kind, 'invalid', String(uri).slice(0, 40));
      assert.match((ref as { message: string }).message, /resourceUri/);
    }
  });

  it('builds the policy from the declared domains only; nothing declared means no network at all', () => {
    const none = contentSecurityPolicy(appCspOf(undefined));
    assert.match(none, /^default-src 'none'; /);
    assert.match(none, /connect-src 'none'/);
    assert.match(none, /frame-src 'none'/);
    assert.doesNotMatch(none, /https?:|\*/);
    const some = contentSecurityPolicy(appCspOf({ connectDomains: ['https://api.example.com', 'wss://rt.example.com:8443'], resourceDomains: ['https://*.cdn.example.net/'] }));
    assert.match(some, /connect-src https:\/\/api\.example\.com wss:\/\/rt\.example\.com:8443;/);
    assert.match(some, /script-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.net;/);
    assert.match(some, /img-src data: blob: https:\/\/\*\.cdn\.example\.net;/);
    assert.doesNotMatch(some, /unsafe-eval/);
  });

  it('refuses CSP injection: ; and quotes, spaces, keywords, wildcards, bare schemes, paths, javascript:', () => {
    const hostile = [
      "https://a.com; script-src 'unsafe-eval'",
      "https://a.com'",
      'https://a.com"',
      'https://a.com https://b.com',
      "'unsafe-eval'",
      "'self'",
      '*',
      'https:',
      'https://*',
      'https://a.com/path',
      'https://a.com?x=1',
      'javascript:alert(1)',
      'data:',
      'https://a.com,https://b.com',
      'https://a.com\nreport-uri x',
      'ftp://a.com',
      '',
      7,
    ];
    for (const domain of hostile) {
      assert.throws(() => appCspOf({ connectDomains: [domain] }), AppResourceError, String(domain));
      assert.throws(() => appCspOf({ resourceDomains: ['https://ok.com', domain] }), /is not an origin|not an origin/, String(domain));
    }
    assert.throws(() => appCspOf({ connectDomains: 'https://a.com' }), /is not a list/);
    assert.throws(() => appCspOf('default-src *'), /not an object/);
    assert.throws(() => appCspOf({ frameDomains: Array.from({ length: 33 }, (_, i) => `https://a${i}.com`) }), /more than 32/);
  });

  it('reads the interface from the resource: HTML text under the cap, with its declared CSP', () => {
    const doc = appDocumentOf('ui://x/app.html', html('<p>hi</p>', { _meta: { ui: { csp: { connectDomains: ['http://localhost:3000'] } } } }), LOCAL);
    assert.equal(doc.html, '<p>hi</p>');
    assert.match(doc.policy, /connect-src http:\/\/localhost:3000;/);
    assert.throws(() => appDocumentOf('ui://x/app.html', html('<p>hi</p>', { mimeType: 'application/javascript' }), LOCAL), /not HTML/);
    assert.throws(() => appDocumentOf('ui://x/app.html', [{ uri: 'ui://x/app.html', mimeType: APP_MIME_TYPE, blob: 'PGh0bWw+' }], LOCAL), /binary/);
    assert.throws(() => appDocumentOf('ui://x/app.html', [], LOCAL), /holds no content/);
    assert.throws(() => appDocumentOf('ui://x/app.html', html('<p>hi</p>', { _meta: { ui: { csp: { connectDomains: ["https://a.com; default-src *"] } } } }), LOCAL), /not an origin/);
  });

  it('refuses a huge interface without copying it around', () => {
    const huge = 'x'.repeat(MAX_APP_HTML_BYTES + 1);
    assert.throws(() => appDocumentOf('ui://x/app.html', html(huge), LOCAL), /larger than 4 MiB/);
  });

  // An interface runs on the user's machine (issue 31): a remote server's may not reach what only
  // that machine reaches, and no server's may name a whole public suffix.
  describe('what an interface may reach, by where its server runs', () => {
    const refusedOf = (origins: string[], place: AppServerPlace) => screenCsp(appCspOf({ connectDomains: origins }), place).refused.map((r) => r.origin);
    const keptOf = (origins: string[], place: AppServerPlace) => screenCsp(appCspOf({ connectDomains: origins }), place).csp.connectDomains;

    it('a remote server\'s interface: loopback, private, link-local, CGNAT, 0.0.0.0 and other non-public addresses are refused, in every spelling', () => {
      const local = [
        'http://127.0.0.1:2375', 'http://127.8.9.10', 'ws://localhost:9222', 'http://localhost', 'https://app.localhost', 'wss://*.localhost',
        'http://10.0.0.1', 'http://172.16.0.1', 'http://172.31.255.255', 'http://192.168.1.1', 'https://100.64.0.1', 'https://100.127.255.254',
        'http://169.254.169.254', 'https://0.0.0.0', 'http://0.0.0.0:8080', 'https://0', 'https://224.0.0.1', 'https://255.255.255.255', 'https://198.18.0.1',
        // decimal, hex, octal and short spellings of 127.0.0.1 and 169.254.169.254
        'http://2130706433', 'http://0x7f000001', 'http://017700000001', 'http://0x7f.1', 'http://127.1', 'http://0177.0.0.1', 'http://2852039166',
      ];
      assert.deepEqual(refusedOf(local, REMOTE), local);
      assert.deepEqual(keptOf(local, REMOTE), []);
    });

    it('a remote server\'s interface: names only the local network resolves (single labels, .local, .internal, .lan, home.arpa) are refused', () => {
      const names = ['https://router', 'https://nas.local', 'https://db.internal', 'https://printer.lan', 'https://x.home.arpa', 'https://*.local', 'https://intranet.corp'];
      assert.deepEqual(refusedOf(names, REMOTE), names);
    });

    it('a remote server\'s interface: plain http and ws to a name are refused (a name may resolve to this machine); https and wss to public names are kept, and so is its own origin', () => {
      assert.deepEqual(refusedOf(['http://api.example.com', 'ws://rt.example.com'], REMOTE), ['http://api.example.com', 'ws://rt.example.com']);
      assert.deepEqual(keptOf(['https://api.example.com', 'wss://rt.example.com:8443', 'https://*.cdn.example.net', 'https://user.github.io', 'https://8.8.8.8', 'http://1.1.1.1'], REMOTE), ['https://api.example.com', 'wss://rt.example.com:8443', 'https://*.cdn.example.net', 'https://user.github.io', 'https://8.8.8.8', 'http://1.1.1.1']);
      const onLoopback: AppServerPlace = { kind: 'elsewhere', why: 'remote', origin: 'http://127.0.0.1:8123' };
      assert.deepEqual(keptOf(['http://127.0.0.1:8123', 'ws://127.0.0.1:8123'], onLoopback), ['http://127.0.0.1:8123', 'ws://127.0.0.1:8123']);
      assert.deepEqual(refusedOf(['http://127.0.0.1:8124', 'https://127.0.0.1:8123', 'http://localhost:8123'], onLoopback), ['http://127.0.0.1:8124', 'https://127.0.0.1:8123', 'http://localhost:8123']);
      assert.deepEqual(keptOf(['https://mcp.example.com', 'https://mcp.example.com:443', 'wss://mcp.example.com'], REMOTE), ['https://mcp.example.com', 'https://mcp.example.com:443', 'wss://mcp.example.com']);
    });

    it('a sandboxed local server counts as elsewhere: its interface may not reach past the sandbox', () => {
      const sandboxed: AppServerPlace = { kind: 'elsewhere', why: 'sandboxed' };
      assert.deepEqual(refusedOf(['http://127.0.0.1:3000', 'http://192.168.0.10'], sandboxed), ['http://127.0.0.1:3000', 'http://192.168.0.10']);
    });

    it('a local (stdio) server\'s interface may name its machine and network, as the server reaches them itself; addresses are kept in their dotted form', () => {
      assert.deepEqual(keptOf(['http://127.0.0.1:3000', 'ws://localhost:9222', 'http://192.168.1.1', 'https://nas.local', 'http://2130706433', 'http://0x7f.1:3000'], LOCAL), ['http://127.0.0.1:3000', 'ws://localhost:9222', 'http://192.168.1.1', 'https://nas.local', 'http://127.0.0.1', 'http://127.0.0.1:3000']);
    });

    it('a wildcard over a whole public suffix (ICANN or a shared-hosting one) is refused for every server, in every directive; one over an address is not an origin', () => {
      const broad = ['https://*.com', 'https://*.co.uk', 'wss://*.github.io', 'https://*.herokuapp.com', 'https://*.xn--p1ai'];
      assert.throws(() => appCspOf({ connectDomains: ['https://*.1.2.3'] }), /not an origin/);
      for (const place of [LOCAL, REMOTE]) {
        const csp = appCspOf({ connectDomains: broad, resourceDomains: broad, frameDomains: broad, baseUriDomains: broad });
        const screened = screenCsp(csp, place);
        assert.deepEqual(screened.refused.map((r) => r.origin), broad, place.kind);
        assert.deepEqual(screened.csp, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, place.kind);
        assert.doesNotMatch(contentSecurityPolicy(screened.csp), /\*/);
      }
      assert.deepEqual(keptOf(['https://*.example.com', 'https://*.example.co.uk', 'https://*.user.github.io'], LOCAL), ['https://*.example.com', 'https://*.example.co.uk', 'https://*.user.github.io']);
    });

    it('every directive is screened: resource (script, style, img, font, media), frame and base-uri as well as connect', () => {
      const csp = appCspOf({ connectDomains: ['https://ok.example.com'], resourceDomains: ['http://127.0.0.1:1'], frameDomains: ['http://10.0.0.1'], baseUriDomains: ['http://169.254.169.254'] });
      const screened = screenCsp(csp, REMOTE);
      const policy = contentSecurityPolicy(screened.csp);
      assert.doesNotMatch(policy, /127\.0\.0\.1|10\.0\.0\.1|169\.254/);
      assert.match(policy, /frame-src 'none'/);
      assert.match(policy, /base-uri 'self'/);
      assert.deepEqual(screened.refused.map((r) => r.origin), ['http://127.0.0.1:1', 'http://10.0.0.1', 'http://169.254.169.254']);
    });

    it('names each refused origin once, with why, in one line', () => {
      const screened = screenCsp(appCspOf({ connectDomains: ['http://2130706433', 'https://*.com', 'http://169.254.169.254'], resourceDomains: ['http://2130706433'] }), REMOTE);
      assert.equal(refusedSentence(screened.refused, REMOTE), "refused in the interface's CSP (its server is remote, and the interface runs on this machine): http://2130706433 (= http://127.0.0.1: loopback), https://*.com (every site under the public suffix com), http://169.254.169.254 (link-local, where clouds serve instance metadata)");
      assert.match(refusedSentence(screened.refused, LOCAL), /^refused in the interface's CSP: /);
    });

    it('refuses IPv6 literals (loopback, mapped, link-local, unique-local: a CSP has no syntax for them) and broken addresses as not origins, for every server', () => {
      for (const origin of ['http://[::1]:8080', 'http://[::ffff:127.0.0.1]', 'http://[::ffff:7f00:1]', 'http://[fe80::1]', 'http://[fc00::1]', 'http://[fd12:3456::1]']) {
        assert.throws(() => appCspOf({ connectDomains: [origin] }), /an IPv6 address, which a CSP cannot name/, origin);
      }
      for (const origin of ['http://1.2.3.4.5', 'http://0x1.0x100000000', 'http://256.1.1.1']) assert.throws(() => appCspOf({ connectDomains: [origin] }), /not an origin/, origin);
    });

    it('reads where a server runs from its definition: http is remote (its own origin kept), stdio is this machine unless sandboxed', () => {
      assert.deepEqual(appServerPlace({ type: 'http', url: 'https://mcp.example.com/v1/mcp?x=1', headers: {} }), { kind: 'elsewhere', why: 'remote', origin: 'https://mcp.example.com' });
      assert.deepEqual(appServerPlace({ type: 'http', url: 'http://LOCALHOST:8080/mcp', headers: {} }), { kind: 'elsewhere', why: 'remote', origin: 'http://localhost:8080' });
      assert.deepEqual(appServerPlace({ type: 'stdio', command: 'node', args: [], env: {} }), { kind: 'this-machine' });
      assert.deepEqual(appServerPlace({ type: 'stdio', command: 'node', args: [], env: {}, sandbox: { filesystem: { denyRead: [], allowWrite: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] }, allowUnsandboxed: false } }), { kind: 'elsewhere', why: 'sandboxed' });
      assert.deepEqual(appServerPlace(undefined), { kind: 'elsewhere', why: 'remote' });
    });

    it('the document of a remote server\'s interface runs without the refused origins and lists them', () => {
      const doc = appDocumentOf('ui://x/app.html', html('<p>hi</p>', { _meta: { ui: { csp: { connectDomains: ['http://127.0.0.1:2375', 'https://api.example.com'] } } } }), REMOTE);
      assert.match(doc.policy, /connect-src https:\/\/api\.example\.com;/);
      assert.deepEqual(doc.refused, [{ origin: 'http://127.0.0.1:2375', why: 'loopback' }]);
    });
  });
});
