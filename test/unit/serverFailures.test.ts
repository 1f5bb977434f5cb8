import * as assert from 'node:assert/strict';
import { SignInError } from '../../src/core/auth/signInErrors';
import { ServerFailure, serverEnd } from '../../src/core/connection/serverFailures';
import { ServerState } from '../../src/core/connection/serverState';
import { stderrReason } from '../../src/core/connection/stderrReason';
import { ConfigError, HandshakeTimeoutError, ServerStartError } from '../../src/core/errors';

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
    // Nothing was launched: no handshake to blame.
    assert.equal(ServerFailure.start(new ConfigError('x', 'Not started: refused.'), { stderr: [] }, undefined).message, 'Server "x": Not started: refused.');
  });

  it('names the state of a server that cannot take a call, and when restarts stopped', () => {
    assert.equal(ServerFailure.notRunning('demo', ServerState.stopped).message, 'Server "demo" is not running (stopped).');
    assert.equal(ServerFailure.gaveUp('The server exited with code 7.', 6), 'The server exited with code 7. It failed 6 times within 3 minutes, so automatic restarts stopped; use Restart to try again.');
  });

  it('knows nothing of the end of an HTTP server (no process of ours)', () => {
    assert.deepEqual(serverEnd(undefined), { stderr: [] });
  });

  it('takes the line that says why from npm and from a Node crash; else the last line that is not blank (issue 32)', () => {
    // npm 11 on a read-only cache, and npm 9's "npm ERR!" prefix (recorded shapes: EACCES cannot be had as root).
    const eacces = ['npm error code EACCES', 'npm error syscall mkdir', 'npm error path /home/u/.npm/_cacache', 'npm error errno -13', "npm error Error: EACCES: permission denied, mkdir '/home/u/.npm/_cacache'", 'npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log'];
    assert.equal(stderrReason(eacces), "npm error EACCES: Error: EACCES: permission denied, mkdir '/home/u/.npm/_cacache' (npm was denied a file it needs, such as its cache folder)");
    const old = ['npm ERR! code E404', 'npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope - Not found', 'npm ERR! 404', 'npm ERR! A complete log of this run can be found in:', 'npm ERR!     /home/u/.npm/_logs/x-debug-0.log'];
    assert.equal(stderrReason(old), 'npm error E404: 404 Not Found - GET https://registry.npmjs.org/nope - Not found (check the package name)');
    const offline = ['npm error code EAI_AGAIN', 'npm error syscall getaddrinfo', 'npm error errno EAI_AGAIN', 'npm error request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org', 'npm error A complete log of this run can be found in: /x.log'];
    assert.match(stderrReason(offline)!, /^npm error EAI_AGAIN: request to https:\/\/registry\.npmjs\.org\/x failed, reason: getaddrinfo EAI_AGAIN registry\.npmjs\.org \(npm could not reach the registry/);
    const crash = ['/srv/x.js:3', "  throw new TypeError('bad config');", '  ^', '', "TypeError: bad config", '    at Object.<anonymous> (/srv/x.js:3:9)', '', 'Node.js v20.20.2'];
    assert.equal(stderrReason(crash), 'Node.js: TypeError: bad config');
    assert.equal(stderrReason(['fatal: no database', '', '  ']), 'Last stderr: fatal: no database');
    assert.equal(stderrReason(['', '']), undefined);
    assert.equal(ServerFailure.duringCall({ exit: { code: 1, signal: null }, stderr: crash }, new Error('closed'))?.message, 'The server exited with code 1 during the call. Node.js: TypeError: bad config');
  });
});
