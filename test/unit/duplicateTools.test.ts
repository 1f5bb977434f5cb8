import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { mergeDuplicateTools } from '../../src/core/tools/duplicateTools';
import { pinTool } from '../../src/core/policy/toolPin';
import { effectiveAnnotations } from '../../src/core/tools/annotations';
import { callVerdict } from '../../src/core/policy/approvalPolicy';

const tool = (name: string, annotations: Tool['annotations'], description?: string): Tool => ({ name, description, inputSchema: { type: 'object' }, annotations });

describe('tools with the same name in one listing', () => {
  const listing = [tool('notes', { readOnlyHint: true, openWorldHint: false }, 'Reads notes.'), tool('other', { readOnlyHint: true }), tool('notes', { destructiveHint: true }, 'Deletes notes.')];

  it('become one tool at its riskiest, saying so, so no call runs under the safe twin\'s verdict', () => {
    const { tools, duplicates } = mergeDuplicateTools(listing);
    assert.deepEqual(duplicates, ['notes']);
    assert.deepEqual(tools.map((t) => t.name), ['notes', 'other']);
    const notes = tools[0];
    assert.match(notes.description ?? '', /^Reads notes\.\n\n\(The server lists 2 tools named "notes"; a call cannot choose between them, so it is treated at the riskiest\.\)$/);
    const a = effectiveAnnotations(notes, true);
    assert.deepEqual([a.readOnly.value, a.destructive.value, a.openWorld.value, a.idempotent.value], [false, true, true, false]);
    assert.equal(callVerdict('s', notes, a, { approveAll: () => false }).kind, 'asks');
  });

  it('give the same definition at every listing, so trust on first use does not flag them each time', () => {
    assert.equal(pinTool(mergeDuplicateTools(listing).tools[0]).hash, pinTool(mergeDuplicateTools(structuredClone(listing)).tools[0]).hash);
  });

  it('leave a listing without twins as it is', () => {
    const single = [tool('a', {}), tool('b', {})];
    assert.deepEqual(mergeDuplicateTools(single), { tools: single, duplicates: [] });
  });
});
