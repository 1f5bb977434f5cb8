import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { approveCall } from '../../src/core/calls/approvalStep';
import type { ApprovalRequest } from '../../src/core/calls/ports';
import { callVerdict, verdictSentence, type ApprovalRules } from '../../src/core/policy/approvalPolicy';
import { parseRules } from '../../src/core/policy/argumentRules';
import { GrantStore, memoryPersistence } from '../../src/core/policy/grants';
import { memoryRuleBindings, RuleBindings } from '../../src/core/policy/ruleBindings';
import { localPaths } from '../../src/core/policy/rulePaths';
import { pinTool } from '../../src/core/policy/toolPin';
import { annotationsKey, closedBySandbox, effectiveAnnotations } from '../../src/core/tools/annotations';
import { badgeDescription, badgeWords, toolBadges } from '../../src/core/tools/toolBadges';

const tool = (annotations: Tool['annotations'], name = 't'): Tool => ({ name, inputSchema: { type: 'object' }, annotations });
const readOnly = tool({ readOnlyHint: true, openWorldHint: false });
const addNote = tool({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
const rules = (over: { approveAll?: () => boolean; grants?: GrantStore } = {}): ApprovalRules => {
  const approveAll = over.approveAll ?? (() => false);
  return over.grants ? { approveAll, grants: over.grants, launchOf: () => 'L1' } : { approveAll };
};

describe('one rule for badges and for "will it ask, and why"', () => {
  it('a tool that writes but destroys nothing reads "writes" in every form (the picker showed nothing)', () => {
    const a = effectiveAnnotations(addNote, true);
    assert.deepEqual(badgeWords(a), ['writes']);
    assert.equal(badgeDescription(a), 'writes');
    assert.deepEqual(toolBadges(a), [{ word: 'writes', assumed: false }]);
  });

  it('a read-only tool runs without asking, unless the user approves every call', () => {
    const a = effectiveAnnotations(readOnly, true);
    assert.deepEqual(callVerdict('s', readOnly, a, rules()), { kind: 'runs', because: 'not-needed' });
    const all = callVerdict('s', readOnly, a, rules({ approveAll: () => true }));
    assert.equal(all.kind, 'asks');
    // The tooltip said "Runs without asking" here while the pipeline asked.
    assert.equal(verdictSentence(all).text, 'Asks before each call: every call needs approval (setting mcpToolHost.approveAllCalls).');
  });

  it('a grant lets a destructive tool run, and names the grant; a changed definition suspends it', () => {
    const t = tool({ destructiveHint: true, openWorldHint: false });
    const a = effectiveAnnotations(t, true);
    const grants = new GrantStore(memoryPersistence());
    assert.deepEqual(verdictSentence(callVerdict('s', t, a, rules({ grants }))), { text: 'Asks before each call: it may change or delete data (destructive).' });
    grants.add('tool-always', 's', 'L1', 't', pinTool(t));
    const granted = callVerdict('s', t, a, rules({ grants }));
    assert.deepEqual(granted, { kind: 'runs', because: 'granted', scope: 'tool-always' });
    assert.equal(verdictSentence(granted).text, 'Runs without asking: you always allow this tool (Manage Approvals to change).');
    const changed = { ...t, description: 'now different' };
    const suspended = callVerdict('s', changed, a, rules({ grants }));
    assert.ok(suspended.kind === 'asks' && suspended.suspended?.changed.includes('description'));
    assert.equal(verdictSentence(suspended).headline, 'Definition changed');
  });

  it('a server-wide grant never covers a destructive tool', () => {
    const t = tool({ destructiveHint: true, openWorldHint: false });
    const grants = new GrantStore(memoryPersistence());
    grants.add('server-session', 's', 'L1', undefined, undefined);
    assert.equal(callVerdict('s', t, effectiveAnnotations(t, true), rules({ grants })).kind, 'asks');
    const open = tool({ readOnlyHint: true, openWorldHint: true });
    assert.equal(callVerdict('s', open, effectiveAnnotations(open, true), rules({ grants })).kind, 'runs');
  });

  it('the pipeline acts on the same verdict the tooltip shows, for every hint combination and setting', async () => {
    const values = [undefined, true, false] as const;
    for (const readOnlyHint of values)
      for (const destructiveHint of values)
        for (const openWorldHint of values)
          for (const approveAll of [false, true]) {
            const t = tool({ readOnlyHint, destructiveHint, openWorldHint });
            const a = effectiveAnnotations(t, true);
            const verdict = callVerdict('s', t, a, rules({ approveAll: () => approveAll }));
            // Expected from the hints alone, not from callVerdict: asks when destructive (never when
            // read-only), open-world (both default to true when undeclared), or approve-all.
            const readOnly = readOnlyHint === true;
            const expectAsks = (!readOnly && destructiveHint !== false) || openWorldHint !== false || approveAll;
            assert.equal(verdict.kind === 'asks', expectAsks, JSON.stringify({ readOnlyHint, destructiveHint, openWorldHint, approveAll }));
            const asked: ApprovalRequest[] = [];
            const approver = { approve: async (r: ApprovalRequest) => (asked.push(r), 'deny' as const) };
            const ctx = { server: 's', launch: 'L1', tool: t, args: {}, annotations: a, origin: 'api' as const, approveAll, validate: () => [] };
            const result = await approveCall(ctx, approver, new GrantStore(memoryPersistence()));
            assert.equal(asked.length === 1, verdict.kind === 'asks', JSON.stringify({ readOnlyHint, destructiveHint, openWorldHint, approveAll }));
            assert.equal(result.kind, verdict.kind === 'asks' ? 'denied' : 'allowed');
            if (verdict.kind === 'asks') assert.deepEqual(asked[0].reasons, verdict.reasons);
            // The decision line in the output channel and the audit log carries the same badges.
            assert.ok('decision' in result && result.decision.endsWith(`[${badgeDescription(a)}]`), JSON.stringify(result));
          }
  });
});

describe('the approve stage and where paths are read', () => {
  it("a call whose rules read no path never works out where paths are read (it stats the launch's folders every call)", async () => {
    const parsed = parseRules([{ name: 'all', server: '*', tool: '*', effect: 'allow' }], 'user');
    let worked = 0;
    const place = () => (worked++, { paths: localPaths() });
    const t = tool({ destructiveHint: true, openWorldHint: false });
    const ctx = { server: 's', launch: 'L1', tool: t, args: { path: 'a' }, annotations: effectiveAnnotations(t, true), origin: 'api' as const, approveAll: false, validate: () => [], rules: { list: parsed.rules, place, bindings: new RuleBindings(memoryRuleBindings()) } };
    const approver = { approve: async () => 'deny' as const };
    for (let i = 0; i < 3; i++) assert.equal((await approveCall(ctx, approver, new GrantStore(memoryPersistence()))).kind, 'allowed');
    assert.equal(worked, 0);
  });
});

describe('annotations as a cache key (the Tools view draws a row once per distinct annotations)', () => {
  it('annotations that say the same have one key; any other value or source has another', () => {
    const kinds = [{}, { readOnlyHint: true }, { destructiveHint: false }, { idempotentHint: true }, { openWorldHint: false }, { destructiveHint: true }, { readOnlyHint: false, openWorldHint: true }];
    const all = kinds.flatMap((annotations) => [true, false].map((trusted) => effectiveAnnotations({ annotations }, trusted)));
    all.push(closedBySandbox(effectiveAnnotations({ annotations: { destructiveHint: false } }, true), { type: 'stdio', sandbox: { allowUnsandboxed: false, network: { allowedDomains: [] } } }, () => true));
    const byKey = new Map<number, string>();
    for (const a of all) {
      const said = JSON.stringify(a);
      const other = byKey.get(annotationsKey(a));
      assert.ok(other === undefined || other === said, `${said} and ${other} share a key`);
      byKey.set(annotationsKey(a), said);
    }
    assert.equal(byKey.size, new Set(all.map((a) => JSON.stringify(a))).size);
    assert.ok(Object.isFrozen(all[0].readOnly), 'hints are shared, so none can be changed');
  });
});
