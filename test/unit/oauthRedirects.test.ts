import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAUTH_REDIRECT_REFUSED, refuseOAuthRedirects } from '../../src/core/transport/oauthRedirects';

/** Two listeners on two origins: `home` answers every request with a 307 to `redirectTo()`; `away` keeps what it hears and answers 200. */
async function origins(redirectTo: (home: string, away: string) => string) {
  const heard: string[] = [];
  const listen = async (handler: http.RequestListener) => {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const away = await listen((req, res) => {
    req.on('data', () => undefined).on('end', () => {
      heard.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const home = await listen((req, res) => {
    if (req.url === '/ok') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(307, { location: redirectTo(home.origin, away.origin) }).end();
  });
  return { home: home.origin, away: away.origin, heard, close: () => [home, away].forEach((s) => s.server.close()) };
}

const form = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });

describe('refuseOAuthRedirects: a token or registration request never follows a redirect to another origin', () => {
  const opened: { close(): void }[] = [];
  afterEach(() => opened.splice(0).forEach((o) => o.close()));
  async function pair(redirectTo: (home: string, away: string) => string) {
    const o = await origins(redirectTo);
    opened.push(o);
    return o;
  }

  it('a token request (a form) redirected elsewhere fails, saying which endpoint sent it where; the other origin hears nothing, even when the caller asked to follow', async () => {
    const o = await pair((_, away) => `${away}/token`);
    await assert.rejects(refuseOAuthRedirects(fetch)(`${o.home}/token`, { ...form('grant_type=refresh_token&refresh_token=r3fresh'), redirect: 'follow' }), (err: Error) => {
      assert.equal(err.name, OAUTH_REDIRECT_REFUSED);
      assert.equal(err.message, `its token endpoint ${o.home}/token redirected the request to another origin (${o.away}): not followed, nothing was sent there. Tell the server's operator.`);
      return true;
    });
    assert.deepEqual(o.heard, []);
  });

  it('a dynamic registration (JSON client metadata) redirected elsewhere fails the same way', async () => {
    const o = await pair((_, away) => `${away}/register`);
    const body = JSON.stringify({ client_name: 'MCP Tool Host', redirect_uris: ['http://127.0.0.1:1/callback'] });
    await assert.rejects(refuseOAuthRedirects(fetch)(`${o.home}/register`, { method: 'POST', body }), /its registration endpoint .*\/register redirected the request to another origin/);
    assert.deepEqual(o.heard, []);
  });

  it('a redirect within the origin is handed to the caller (the SDK follows it); an MCP message and a GET pass as they are', async () => {
    const same = await pair((home) => `${home}/ok`);
    const within = await refuseOAuthRedirects(fetch)(`${same.home}/token`, form('grant_type=authorization_code&code=c'));
    assert.deepEqual([within.status, within.headers.get('location')], [307, `${same.home}/ok`]);
    const o = await pair((_, away) => `${away}/mcp`);
    const mcp = await refuseOAuthRedirects(fetch)(`${o.home}/mcp`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { redirect_uris: [] } }), redirect: 'manual' });
    assert.equal(mcp.status, 307, 'an MCP message is the transport\'s to judge (it reports the redirect itself)');
    const get = await refuseOAuthRedirects(fetch)(`${o.home}/.well-known/oauth-authorization-server`, { redirect: 'manual' });
    assert.equal(get.status, 307);
    assert.deepEqual(o.heard, []);
  });
});
