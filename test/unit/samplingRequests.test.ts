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
