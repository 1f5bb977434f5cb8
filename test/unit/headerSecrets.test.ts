import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { headerSecrets, resolveLaunch } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { MASK, maskSecrets } from '../../src/core/render/secrets';

const ctx = (env: Record<string, string>) => ({ workspaceFolders: [{ name: 'w', path: os.tmpdir() }], env });

describe("an http server's header values are masked, the credential after the scheme alone too", () => {
  it('attacker: a server that echoes the bare token of "Authorization: Bearer ..." sees it masked', () => {
    const def = parseServers({ remote: { type: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${env:HDRSEC}', 'X-Api-Key': '${env:KEY}' } } }, 'user').servers[0];
    const launch = resolveLaunch(def, ctx({ HDRSEC: 'hdr-secret-7777777777', KEY: 'key-0123456789' }));
    const echoed = 'Echo: tok hdr-secret-7777777777 end; full Bearer hdr-secret-7777777777; key key-0123456789';
    assert.equal(maskSecrets(echoed, launch.secrets), `Echo: tok ${MASK} end; full ${MASK}; key ${MASK}`);
  });

  it('of Basic, the encoded pair, the pair and the password are masked', () => {
    const encoded = Buffer.from('alice:pa55-word-xyz').toString('base64');
    assert.deepEqual(headerSecrets(`Basic ${encoded}`), [`Basic ${encoded}`, encoded, 'alice:pa55-word-xyz', 'pa55-word-xyz']);
    assert.equal(maskSecrets('password pa55-word-xyz', headerSecrets(`Basic ${encoded}`)), `password ${MASK}`);
  });

  it('a value that is not a scheme and a credential is masked whole, as before', () => {
    assert.deepEqual(headerSecrets('plain-api-key-123'), ['plain-api-key-123']);
    assert.deepEqual(headerSecrets('a b c'), ['a b c']);
    assert.deepEqual(headerSecrets('Bearer'), ['Bearer']);
  });
});
