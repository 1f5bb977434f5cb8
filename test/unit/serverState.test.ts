import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ServerState } from '../../src/core/connection/serverState';

/** One state of every kind; `satisfies` fails to compile when a kind is added and not listed here. */
const EVERY_KIND = {
  stopped: { kind: 'stopped' },
  disabled: { kind: 'disabled' },
  starting: { kind: 'starting', message: 'Waiting for you to sign in' },
  running: { kind: 'running', serverName: 'demo', instructions: 'be nice' },
  error: { kind: 'error', message: 'exited with code 1', restartInMs: 1000 },
} as const satisfies Record<ServerState['kind'], ServerState>;

/** The kinds (in EVERY_KIND's order) for which `helper` is true. */
const kindsWhere = (helper: (state: ServerState) => boolean) => Object.values(EVERY_KIND).filter((s) => helper(s)).map((s) => s.kind);

describe('ServerState helpers', () => {
  it('isRunning: only a running server has a live session', () => {
    assert.deepEqual(kindsWhere(ServerState.isRunning), ['running']);
  });

  it('isRunning narrows to the running state', () => {
    const state: ServerState = EVERY_KIND.running;
    assert.equal(ServerState.isRunning(state) ? state.instructions : undefined, 'be nice');
  });

  it('isActive: running or starting', () => {
    assert.deepEqual(kindsWhere(ServerState.isActive), ['starting', 'running']);
  });

  it('canStart: stopped or failed', () => {
    assert.deepEqual(kindsWhere(ServerState.canStart), ['stopped', 'error']);
  });

  it('canStop: starting, running, or failed with a restart scheduled (a failure that gave up has nothing to stop)', () => {
    assert.deepEqual(kindsWhere(ServerState.canStop), ['starting', 'running', 'error']);
    assert.equal(ServerState.canStop({ kind: 'error', message: 'gave up' }), false);
  });

  it("the tree's context menu offers Start, Stop and Restart exactly where the table allows them", () => {
    const gaveUp: ServerState = { kind: 'error', message: 'gave up' };
    const states = [...Object.values(EVERY_KIND), gaveUp];
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> } };
    const menus = manifest.contributes.menus['view/item/context'];
    // A stopped server's row offers Start; its Restart (the same thing) is left to the palette.
    const restartOnRow = (state: ServerState) => ServerState.canRestart(state) && state.kind !== 'stopped';
    for (const [command, allows] of [['mcpToolHost.tree.start', ServerState.canStart], ['mcpToolHost.tree.stop', ServerState.canStop], ['mcpToolHost.tree.restart', restartOnRow]] as const) {
      const entry = menus.find((m) => m.command === command && m.group?.startsWith('1_lifecycle'));
      const pattern = new RegExp(/viewItem =~ \/(.*)\/$/.exec(entry?.when ?? '')![1]);
      for (const state of states) {
        assert.equal(pattern.test(`mcpServer;${ServerState.phase(state)};`), allows(state), `${command} for ${JSON.stringify(state)}`);
      }
    }
  });

  it('canRestart: everything but disabled', () => {
    assert.deepEqual(kindsWhere(ServerState.canRestart), ['stopped', 'starting', 'running', 'error']);
  });
});
