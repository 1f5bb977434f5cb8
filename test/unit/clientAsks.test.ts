import * as assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../src/core/calls/ports';
import { approvalForm, MAX_ARGS_CHARS, unaskedApprover } from '../../src/core/gateway/clientAsks';

const RULE = "needs approval by rule 'ask writes' (rules file rules.json): writes are reviewed";

function request(args: Record<string, unknown>, over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    server: 'fs',
    tool: { name: 'write_file', inputSchema: { type: 'object' } },
    args,
    annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false } as unknown as ApprovalRequest['annotations'],
    reasons: ['may change or delete data (destructive)'],
    origin: 'gateway',
    offerServerGrant: false,
    offerToolGrants: true,
    offerRule: false,
    ...over,
  };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("the gateway's approval form for the client (clientAsks.ts)", () => {
  it('attacker: arguments padded past what the form shows still show their end, and say how much is not shown', () => {
    const content = `${'A'.repeat(300_000)}TAIL-SECRET-PAYLOAD`;
    const message = approvalForm(request({ path: '/home/u/.ssh/authorized_keys', content })).message;
    assert.match(message, /TAIL-SECRET-PAYLOAD"\}$/);
    assert.match(message, /"path":"\/home\/u\/\.ssh\/authorized_keys"/);
    const whole = JSON.stringify({ path: '/home/u/.ssh/authorized_keys', content }).length;
    assert.match(message, new RegExp(`\\[\\.\\.\\. [\\d,]+ characters not shown here: the arguments are ${whole.toLocaleString('en-US')} characters in all \\.\\.\\.\\]`));
    assert.ok(message.length < MAX_ARGS_CHARS + 1_000, `the form is ${message.length} characters`);
  });

  it('shows short arguments whole, with no note', () => {
    const message = approvalForm(request({ path: 'a.txt', content: 'hi' })).message;
    assert.match(message, /Arguments: \{"path":"a\.txt","content":"hi"\}$/);
    assert.doesNotMatch(message, /not shown/);
  });

  it('never splits a character outside the basic plane where it cuts', () => {
    for (let shift = 0; shift < 4; shift++) {
      const message = approvalForm(request({ content: `${'x'.repeat(shift)}${'😀'.repeat(2_000)}` })).message;
      assert.match(message, /not shown here/);
      assert.doesNotMatch(message, LONE_SURROGATE, `a lone surrogate at shift ${shift}`);
    }
  });

  it('says an ask rule once, in the form and in the denial of a client that cannot be asked', async () => {
    const asked = request({ path: 'a.txt' }, { reasons: [RULE, 'may change or delete data (destructive)'], rule: RULE });
    const message = approvalForm(asked).message;
    assert.equal(message.split("rule 'ask writes'").length - 1, 1, message);
    assert.match(message, /Why this asks: needs approval by rule 'ask writes' \(rules file rules\.json\): writes are reviewed and may change or delete data \(destructive\)\./);
    const denials: { reason?: string } = {};
    assert.deepEqual(await unaskedApprover(denials).approve(asked), { kind: 'refused', why: 'approval required, and the client cannot be asked (no elicitation)' });
    assert.equal(denials.reason!.split("rule 'ask writes'").length - 1, 1, denials.reason);
    // A rule that is not among the reasons (approve-all overriding an allow rule) is still said.
    const overridden = approvalForm(request({}, { rule: "allowed by rule 'reads'" })).message;
    assert.match(overridden, /Why this asks: may change or delete data \(destructive\); allowed by rule 'reads'\./);
  });
});
