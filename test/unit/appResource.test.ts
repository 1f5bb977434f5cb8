import * as assert from 'node:assert/strict';
import { APP_MIME_TYPE, AppResourceError, MAX_APP_HTML_BYTES, appCspOf, appDocumentOf, appReferenceOf, contentSecurityPolicy } from '../../src/core/apps/appResource';

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
    const doc = appDocumentOf('ui://x/app.html', html('<p>hi</p>', { _meta: { ui: { csp: { connectDomains: ['http://localhost:3000'] } } } }));
    assert.equal(doc.html, '<p>hi</p>');
    assert.match(doc.policy, /connect-src http:\/\/localhost:3000;/);
    assert.throws(() => appDocumentOf('ui://x/app.html', html('<p>hi</p>', { mimeType: 'application/javascript' })), /not HTML/);
    assert.throws(() => appDocumentOf('ui://x/app.html', [{ uri: 'ui://x/app.html', mimeType: APP_MIME_TYPE, blob: 'PGh0bWw+' }]), /binary/);
    assert.throws(() => appDocumentOf('ui://x/app.html', []), /holds no content/);
    assert.throws(() => appDocumentOf('ui://x/app.html', html('<p>hi</p>', { _meta: { ui: { csp: { connectDomains: ["https://a.com; default-src *"] } } } })), /not an origin/);
  });

  it('refuses a huge interface without copying it around', () => {
    const huge = 'x'.repeat(MAX_APP_HTML_BYTES + 1);
    assert.throws(() => appDocumentOf('ui://x/app.html', html(huge)), /larger than 4 MiB/);
  });
});
