import * as assert from 'node:assert/strict';
import { turnWrites } from '../../src/core/transport/turnWrites';

/** A stream that records what reaches the pipe: a write while corked waits for the uncork. */
function recordingStream() {
  const syscalls: string[][] = [];
  let held: string[] | undefined;
  return {
    syscalls,
    stream: {
      write(text: string) {
        if (held) held.push(text);
        else syscalls.push([text]);
        return true;
      },
      cork() {
        held ??= [];
      },
      uncork() {
        if (held?.length) syscalls.push(held);
        held = undefined;
      },
    },
  };
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('writes of a turn (turnWrites)', () => {
  it('sends the first message of a turn at once, and the rest of that turn together at its end', async () => {
    const { syscalls, stream } = recordingStream();
    const write = turnWrites(stream);
    write('a');
    assert.deepEqual(syscalls, [['a']], 'a lone answer waits for nothing');
    write('b');
    write('c');
    assert.deepEqual(syscalls, [['a']]);
    await endOfTurn();
    assert.deepEqual(syscalls, [['a'], ['b', 'c']]);
  });

  it('starts each turn afresh', async () => {
    const { syscalls, stream } = recordingStream();
    const write = turnWrites(stream);
    write('a');
    await endOfTurn();
    write('b');
    await endOfTurn();
    write('c');
    write('d');
    await endOfTurn();
    assert.deepEqual(syscalls, [['a'], ['b'], ['c'], ['d']]);
  });
});
