import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxOffer } from '../../src/vscode/servers/sandboxOffer';

/**
 * "Sandbox Every Local Server" (issue 32): the walkthrough's one-click step, and the palette command
 * behind it. On a machine that cannot sandbox, turning the setting on would stop every local server:
 * the command says why and what to install, and leaves the setting off.
 */
describe('Sandbox Every Local Server in the real extension host', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const run = () => vscode.commands.executeCommand<SandboxOffer>('mcpToolHost.sandboxEveryServer');

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    await vscode.extensions.getExtension('mcp-tool-host.mcp-tool-host')!.activate();
  });
  afterEach(async () => {
    await config().update('sandbox.stdioByDefault', undefined, vscode.ConfigurationTarget.Global);
  });

  it('without bubblewrap, it refuses, says what to install, and leaves the setting off', async () => {
    // A PATH where `which` runs but finds no bwrap: how the sandbox library checks for it.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'offer-nobwrap-'));
    fs.symlinkSync('/usr/bin/which', path.join(bin, 'which'));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    let offer: SandboxOffer | undefined;
    try {
      offer = await run();
    } finally {
      process.env.PATH = saved;
      fs.rmSync(bin, { recursive: true, force: true });
    }
    assert.ok(offer, 'the command returned nothing');
    assert.equal(offer.turnedOn, false);
    assert.match(offer.message, /cannot sandbox/);
    assert.match(offer.message, /sudo apt-get install bubblewrap socat ripgrep/);
    assert.equal(config().inspect<boolean>('sandbox.stdioByDefault')?.globalValue, undefined);
    assert.equal(config().get<boolean>('sandbox.stdioByDefault'), false);
  });

  it('with bubblewrap, it turns the setting on', async () => {
    const offer = await run();
    assert.ok(offer, 'the command returned nothing');
    assert.equal(offer.turnedOn, true, offer.message);
    assert.equal(config().inspect<boolean>('sandbox.stdioByDefault')?.globalValue, true);
  });
});
