import * as assert from 'node:assert/strict';
import type { ToolExecution } from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import { followTask } from '../../src/core/connection/taskSession';

/** A task execution that settles with `outcome`, as the tasks package reports one. */
function settledWith(outcome: Record<string, unknown>): ToolExecution<unknown> {
  const execution = { settle: async () => ({ outcome, lastTask: undefined }), cancel: async () => undefined, detach: async () => undefined };
  // Only settle, cancel and detach are used by followTask; the rest of the interface is not needed here.
  return execution as unknown as ToolExecution<unknown>;
}

/** The package's failure: a message, the server's error code when the server answered with one. */
function taskFailed(message: string, code?: number, cause?: Error): Error & { code?: number } {
  return Object.assign(new Error(message, cause && { cause }), code === undefined ? {} : { code });
}

const working = { taskId: 't1', status: 'failed', statusMessage: 'the build broke', createdAt: '', lastUpdatedAt: '', ttl: 1 };

describe('following a task: who said it ended', () => {
  it('the server\'s terminal status or its error answer ends the task', async () => {
    assert.deepEqual(await followTask(settledWith({ status: 'failed', error: taskFailed('the build broke'), task: working }), undefined, undefined), { kind: 'ended', message: 'The task failed: the build broke' });
    assert.deepEqual(await followTask(settledWith({ status: 'failed', error: taskFailed('the build broke', -32603) }), undefined, undefined), { kind: 'ended', message: 'The task failed: the build broke' });
    assert.deepEqual(await followTask(settledWith({ status: 'cancelled' }), undefined, undefined), { kind: 'ended', message: 'The task was cancelled.' });
  });

  it('a poll that failed on our side (the session ended under it) throws its error: the task may still run', async () => {
    // What a window reload did when the poll went out after the server's exit and before the call saw it.
    const notConnected = new Error('Not connected: the server process is not running');
    await assert.rejects(followTask(settledWith({ status: 'failed', error: taskFailed(notConnected.message, undefined, notConnected) }), undefined, undefined), (err) => err === notConnected);
  });
});
