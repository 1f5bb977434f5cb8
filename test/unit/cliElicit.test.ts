import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { askForm } from '../../src/cli/elicit';
import { formFields, type FormField } from '../../src/core/elicitation/formElicitation';

const fields = formFields({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'Ada' },
    age: { type: 'integer', minimum: 0 },
    status: { type: 'string', oneOf: [{ const: 'on', title: 'On duty' }, { const: 'off', title: 'Off\u001b[2J' }] },
    note: { type: 'string' },
  },
  required: ['age'],
}) as FormField[];

/** Answers the terminal form with `lines`; returns the answer and what was shown. */
async function answer(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  const left = [...lines];
  // A person answers each question once it is asked; with no answer left, the input ends (Ctrl+D).
  output.on('data', (d: Buffer) => {
    shown += d.toString();
    if (!shown.endsWith(': ')) return;
    const next = left.shift();
    if (next === undefined) input.end();
    else input.write(`${next}\n`);
  });
  const result = await askForm({ server: 's\u202E', message: 'Who?', fields }, input, output);
  return { result, shown };
}

describe('the CLI asks a form on a terminal', () => {
  it('field by field: Enter takes the default, a bad value is asked again, a choice by its number, an optional field may stay empty', async () => {
    const { result, shown } = await answer(['y', '', '-3', '41', '2', '']);
    assert.deepEqual(result, { action: 'accept', content: { name: 'Ada', age: 41, status: 'off' } });
    assert.match(shown, /"s" asks during a call: Who\?/, 'the server named, its direction override removed');
    assert.match(shown, /age must be at least 0\./);
    assert.match(shown, /2\. Off\n/, 'choice labels shown without their escapes');
  });

  it('"n" declines and "c" cancels before any field; the input ending cancels', async () => {
    assert.deepEqual((await answer(['n'])).result, { action: 'decline' });
    assert.deepEqual((await answer(['c'])).result, { action: 'cancel' });
    assert.deepEqual((await answer(['y', 'Bob'])).result, { action: 'cancel' });
    // Anything but Enter, y, n or c is asked again, never read as yes; still unclear, the form is cancelled.
    const unclear = await answer(['Alice', 'nope', 'n']);
    assert.deepEqual(unclear.result, { action: 'decline' });
    assert.match(unclear.shown, /Type y \(or Enter\) to answer, n to decline, c to cancel/);
    assert.deepEqual((await answer(['x', 'Alice', 'nope'])).result, { action: 'cancel' });
  });
});
