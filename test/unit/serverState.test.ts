import * as assert from 'node:assert/strict';
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

  it('canStop: starting, running or failed', () => {
    assert.deepEqual(kindsWhere(ServerState.canStop), ['starting', 'running', 'error']);
  });

  it('canRestart: everything but disabled', () => {
    assert.deepEqual(kindsWhere(ServerState.canRestart), ['stopped', 'starting', 'running', 'error']);
  });
});
