import * as assert from 'node:assert/strict';
import { SignInError } from '../../src/core/auth/signInErrors';
import { ServerFailure, serverEnd } from '../../src/core/connection/serverFailures';
import { ServerState } from '../../src/core/connection/serverState';
import { HandshakeTimeoutError, ServerStartError } from '../../src/core/errors';

const exited = { exit: { code: 7, signal: null }, stderr: ['starting', 'fatal: no database'] };
const killed = { exit: { code: null, signal: 'SIGKILL' as const }, stderr: [] };

describe('ServerFailure: the sentences for a failed server', () => {
  it('says how the process ended, the same way after a crash, during a call and during the handshake', () => {
    assert.equal(ServerFailure.closed(exited), 'The server exited with code 7.');
    assert.equal(ServerFailure.closed(killed), 'The server was killed by SIGKILL.');
    assert.equal(ServerFailure.closed({ stderr: [] }), 'The server closed the connection.');
    assert.equal(ServerFailure.duringCall(exited, new Error('Connection closed'))?.message, 'The server exited with code 7 during the call. Last stderr: fatal: no database');
    const start = ServerFailure.start(new Error('Connection closed'), exited, undefined);
    assert.ok(start instanceof ServerStartError);
    assert.equal(start.message, 'The server exited with code 7 before finishing the MCP handshake. Last stderr: fatal: no database');
    assert.deepEqual(start.stderrTail, exited.stderr);
  });

  it('leaves the SDK error of a call alone when the process did not end', () => {
    assert.equal(ServerFailure.duringCall({ stderr: [] }, new Error('timeout')), undefined);
  });

  it('explains a failed start: a ServerStartError as it is, a sign-in in its own words, HTTP by status, else the handshake', () => {
    const timeout = ServerFailure.handshakeTimeout(1000, []);
    assert.ok(timeout instanceof HandshakeTimeoutError);
    assert.equal(timeout.message, 'The server did not answer "initialize" within 1 s. It wrote nothing to stderr.');
    assert.equal(ServerFailure.handshakeTimeout(2000, ['a', 'b']).message, 'The server did not answer "initialize" within 2 s. Last stderr: b');
    assert.equal(ServerFailure.start(timeout, exited, undefined), timeout);
    assert.equal(ServerFailure.start(new SignInError('Signing in to "x" was cancelled.'), { stderr: [] }, 'https://x.test/mcp').message, 'Signing in to "x" was cancelled.');
    assert.match(ServerFailure.start(Object.assign(new Error('nope'), { status: 404 }), { stderr: [] }, 'https://x.test/mcp').message, /answered 404 Not Found/);
    assert.equal(ServerFailure.start(new Error('bad version'), { stderr: [] }, undefined).message, 'The MCP handshake failed: bad version');
  });

  it('names the state of a server that cannot take a call, and when restarts stopped', () => {
    assert.equal(ServerFailure.notRunning('demo', ServerState.stopped).message, 'Server "demo" is not running (stopped).');
    assert.equal(ServerFailure.gaveUp('The server exited with code 7.', 6), 'The server exited with code 7. It failed 6 times within 3 minutes, so automatic restarts stopped; use Restart to try again.');
  });

  it('knows nothing of the end of an HTTP server (no process of ours)', () => {
    assert.deepEqual(serverEnd(undefined), { stderr: [] });
  });
});
