import * as assert from 'node:assert/strict';
import { safeSampling, samplingParams, type SamplingParams } from '../../src/core/connection/samplingRequests';
import { MASK } from '../../src/core/render/secrets';

describe('a server\'s sampling request as the host passes it on (samplingRequests)', () => {
  it("masks the server's secrets in every text it carries, single blocks and lists, and in the system prompt", () => {
    const params = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'token sk-live-1234 here' } },
        { role: 'user', content: [{ type: 'text', text: 'again sk-live-1234' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      ],
      systemPrompt: 'Use sk-live-1234\u202e',
      maxTokens: 10,
    } as SamplingParams;
    const masked = JSON.stringify(safeSampling(params, ['sk-live-1234']));
    assert.ok(!masked.includes('sk-live-1234'), masked);
    assert.equal(masked.split(MASK).length - 1, 3);
    assert.ok(masked.includes('"data":"AAAA"'), 'an image is passed on as it is');
  });

  it("masks the server's secrets in every string the request carries, split by a hidden character or whole: stop sequences, metadata, model hints, tool uses", () => {
    const secret = 'sk-supersecret-0123456789';
    const split = `sk-su\u200bpersecret-0123456789`;
    const params = {
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { key: split, [`k-${secret}`]: 1 } }] }],
      systemPrompt: `Use ${split}`,
      stopSequences: [secret, split],
      metadata: { key: secret, nested: { list: [split, { [`k-${secret}`]: `sk-super\u00adsecret-0123456789` }] } },
      modelPreferences: { hints: [{ name: `model-${secret}` }] },
      maxTokens: 10,
    } as unknown as SamplingParams;
    const masked = safeSampling(params, [secret]);
    const strings = JSON.stringify(masked).replace(/[\u00ad\u200b]/g, '');
    assert.ok(!strings.includes(secret), strings);
    assert.deepEqual(masked.stopSequences, [MASK, MASK]);
    assert.deepEqual(masked.metadata, { key: MASK, nested: { list: [MASK, { [`k-${MASK}`]: MASK }] } });
    assert.equal(masked.maxTokens, 10);
  });

  it('refuses, saying why, a request nested too deep to be checked for the secrets', () => {
    let deep: unknown = 'sk-supersecret-0123456789';
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10, metadata: deep } as unknown as SamplingParams;
    assert.throws(() => safeSampling(params, ['sk-supersecret-0123456789']), /nests deeper than \d+ levels/);
  });

  it('passes on no hidden characters, secrets or not: tag characters and direction overrides are taken out', () => {
    const hidden = String.fromCodePoint(0xe0049, 0xe0047);
    const params = { messages: [{ role: 'user', content: { type: 'text', text: `Summarise${hidden}` } }], systemPrompt: 'Be brief\u202e', maxTokens: 10 } as SamplingParams;
    const safe = safeSampling(params, []);
    assert.deepEqual(safe.messages[0].content, { type: 'text', text: 'Summarise' });
    assert.equal(safe.systemPrompt, 'Be brief');
  });

  it('refuses an embedded request without messages or a positive maxTokens, saying which', () => {
    assert.equal(samplingParams(null), 'its params are not an object');
    assert.equal(samplingParams({ messages: 'hi', maxTokens: 5 }), 'its messages are not a list of messages');
    assert.equal(samplingParams({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 0 }), 'its maxTokens is not a positive integer');
    assert.equal(typeof samplingParams({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }), 'object');
  });
});
