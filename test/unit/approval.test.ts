import * as assert from 'node:assert/strict';
import { displayName, effectiveAnnotations } from '../../src/core/tools/annotations';
import { badgeWords } from '../../src/core/tools/toolBadges';
import { approvalNeed } from '../../src/core/policy/approvalPolicy';

describe('effective annotations and the approval policy', () => {
  it('fills missing hints with the spec defaults and marks them as defaults', () => {
    const a = effectiveAnnotations({}, true);
    assert.deepEqual(badgeWords(a), ['destructive', 'open-world']);
    assert.equal(a.destructive.source, 'default');
    assert.equal(approvalNeed(a).kind, 'required');
  });

  it('needs no approval for a declared read-only, closed-world tool', () => {
    const a = effectiveAnnotations({ annotations: { readOnlyHint: true, openWorldHint: false } }, true);
    assert.deepEqual(badgeWords(a), ['read-only']);
    assert.equal(a.readOnly.source, 'declared');
    assert.equal(approvalNeed(a).kind, 'none');
  });

  it('ignores destructiveHint on a read-only tool (the spec gives it meaning only otherwise)', () => {
    const a = effectiveAnnotations({ annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false } }, true);
    assert.equal(a.destructive.value, false);
    assert.equal(approvalNeed(a).kind, 'none');
  });

  it('asks for a destructive tool and for an open-world one, naming why', () => {
    const destructive = approvalNeed(effectiveAnnotations({ annotations: { destructiveHint: true, openWorldHint: false } }, true));
    assert.deepEqual(destructive, { kind: 'required', reasons: ['may change or delete data (destructive)'] });
    const open = approvalNeed(effectiveAnnotations({ annotations: { readOnlyHint: true, openWorldHint: true } }, true));
    assert.deepEqual(open, { kind: 'required', reasons: ['may reach the outside world (open-world)'] });
  });

  it('takes every hint at its worst when the server is not trusted, whatever it declares', () => {
    const a = effectiveAnnotations({ annotations: { readOnlyHint: true, openWorldHint: false } }, false);
    assert.deepEqual(badgeWords(a), ['destructive', 'open-world']);
    assert.equal(a.readOnly.source, 'untrusted');
    assert.equal(approvalNeed(a).kind, 'required');
  });

  it('asks for every call when the user says so', () => {
    const a = effectiveAnnotations({ annotations: { readOnlyHint: true, openWorldHint: false } }, true);
    assert.equal(approvalNeed(a, { approveAll: true }).kind, 'required');
  });

  it('shows title, then annotations.title, then name', () => {
    assert.equal(displayName({ name: 'n', title: 'T', annotations: { title: 'A' } }), 'T');
    assert.equal(displayName({ name: 'n', annotations: { title: 'A' } }), 'A');
    assert.equal(displayName({ name: 'n' }), 'n');
  });
});

describe('the approval policy over every combination of hints and trust', () => {
  const values = [undefined, true, false] as const;
  for (const readOnlyHint of values)
    for (const destructiveHint of values)
      for (const openWorldHint of values)
        for (const trusted of [true, false]) {
          const annotations = { readOnlyHint, destructiveHint, openWorldHint };
          it(`${JSON.stringify(annotations)} ${trusted ? 'trusted' : 'untrusted'}`, () => {
            const a = effectiveAnnotations({ annotations }, trusted);
            const readOnly = trusted ? readOnlyHint ?? false : false;
            const destructive = !readOnly && (trusted ? destructiveHint ?? true : true);
            const openWorld = trusted ? openWorldHint ?? true : true;
            assert.equal(a.readOnly.value, readOnly);
            assert.equal(a.destructive.value, destructive);
            assert.equal(a.openWorld.value, openWorld);
            assert.equal(approvalNeed(a).kind, destructive || openWorld ? 'required' : 'none');
          });
        }
});
