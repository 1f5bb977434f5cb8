import * as assert from 'node:assert/strict';
import { MAX_PARTS, partsNeeded, splitRecords, WINDOWS_MAX_UTF16_UNITS } from '../../src/cli/keychainParts';
import type { SecretStore } from '../../src/core/auth/ports';

/**
 * Keychain entries as the keychain library keeps them on `platform`: on Windows a password over
 * 2,560 bytes as UTF-16 is refused, with the library's own error.
 */
function keychain(platform: NodeJS.Platform): SecretStore & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (k) => map.get(k),
    async store(k, v) {
      if (platform === 'win32' && v.length * 2 > 2560) throw new Error("Attribute 'password encoded as UTF-16' is longer than platform limit of 2560 chars");
      map.set(k, v);
    },
    delete: async (k) => void map.delete(k),
  };
}

/** A sign-in record of the size a JWT access token, a refresh token and a DPoP key make. */
const bigRecord = (chars: number) => JSON.stringify({ tokens: { access_token: 'x'.repeat(chars) }, dpop: '🔑' });

describe('keychain records too large for one Windows credential', () => {
  it('decides by platform and size: one entry everywhere but Windows, where a record over 1,280 UTF-16 units takes several, and one over the parts is refused', () => {
    assert.equal(partsNeeded(bigRecord(6000), 'linux'), 1);
    assert.equal(partsNeeded(bigRecord(6000), 'darwin'), 1);
    assert.equal(partsNeeded('x'.repeat(WINDOWS_MAX_UTF16_UNITS), 'win32'), 1);
    assert.equal(partsNeeded('x'.repeat(WINDOWS_MAX_UTF16_UNITS + 1), 'win32'), 2);
    assert.equal(partsNeeded(bigRecord(6000), 'win32'), 5);
    assert.equal(partsNeeded('x'.repeat(MAX_PARTS * WINDOWS_MAX_UTF16_UNITS + 1), 'win32'), undefined);
  });

  it('on Windows a 6 KB record is kept in parts that each fit, read back whole, replaced by a smaller one, and deleted with its parts', async () => {
    const entries = keychain('win32');
    const store = splitRecords(entries, 'win32', 'the Windows Credential Manager');
    const record = bigRecord(6000);
    await store.store('mcpToolHost.oauth.remote', record);
    assert.ok([...entries.map.values()].every((v) => v.length <= WINDOWS_MAX_UTF16_UNITS));
    assert.equal(await store.get('mcpToolHost.oauth.remote'), record);
    await store.store('mcpToolHost.oauth.remote', bigRecord(2000)); // fewer parts: the old last ones go
    assert.equal(await store.get('mcpToolHost.oauth.remote'), bigRecord(2000));
    assert.equal(entries.map.size, 1 + 2);
    await store.store('mcpToolHost.oauth.remote', '{"small":true}');
    assert.deepEqual([...entries.map.entries()], [['mcpToolHost.oauth.remote', '{"small":true}']]);
    await store.store('mcpToolHost.oauth.remote', record);
    await store.delete('mcpToolHost.oauth.remote');
    assert.equal(entries.map.size, 0);
  });

  it('a surrogate pair is never cut in two', async () => {
    const entries = keychain('win32');
    const store = splitRecords(entries, 'win32', 'the Windows Credential Manager');
    const record = `${'x'.repeat(WINDOWS_MAX_UTF16_UNITS - 1)}🔑${'y'.repeat(10)}`;
    await store.store('k', record);
    assert.equal(await store.get('k'), record);
    assert.ok([...entries.map.values()].every((v) => !/[\ud800-\udbff]$/.test(v)));
  });

  it('a record too large even in parts is refused, naming the file store; nothing half written; elsewhere a record is one entry as before', async () => {
    const entries = keychain('win32');
    const store = splitRecords(entries, 'win32', 'the Windows Credential Manager');
    await assert.rejects(store.store('k', 'x'.repeat(MAX_PARTS * WINDOWS_MAX_UTF16_UNITS + 1)), /too large for the Windows Credential Manager .* Keep sign-ins in the file instead: set MCP_TOOL_HOST_CREDENTIALS=file\./);
    assert.equal(entries.map.size, 0);
    const linux = keychain('linux');
    await splitRecords(linux, 'linux', 'the Secret Service keyring').store('k', bigRecord(6000));
    assert.deepEqual([...linux.map.keys()], ['k']);
  });

  it('a part gone missing reads as no sign-in (the next sign-in writes it whole again)', async () => {
    const entries = keychain('win32');
    const store = splitRecords(entries, 'win32', 'the Windows Credential Manager');
    await store.store('k', bigRecord(3000));
    entries.map.delete('k#part2');
    assert.equal(await store.get('k'), undefined);
  });
});
