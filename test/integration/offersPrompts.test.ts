import * as assert from 'node:assert/strict';
import type { AuditRecord } from '../../src/core/calls/ports';
import { loadOffers } from '../../src/core/offers/load';
import type { PromptOffers } from '../../src/core/offers/offerTypes';
import { EVERYTHING, makeHost, node, until } from './helpers';

describe('prompts, completion and log level of server-everything (real child process)', function () {
  const audit: AuditRecord[] = [];
  const host = makeHost({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'] }) }, 'allow-once', { audit: { append: (r) => audit.push(r) } });
  let offers: PromptOffers;
  before(async () => {
    offers = loadOffers().newPromptOffers({ pool: host.pool, pipeline: host.pipeline, audit: { append: (r) => audit.push(r) } });
    await host.pool.get('everything')!.start();
  });
  after(async () => {
    offers.dispose();
    await host.close();
  });

  it('lists its prompts with their arguments, and keeps the listing until told of a change', async () => {
    const list = await offers.prompts('everything');
    assert.equal(list.cut, undefined);
    const args = list.items.find((p) => p.name === 'args-prompt');
    assert.ok(args, JSON.stringify(list.items.map((p) => p.name)));
    assert.equal(args.title, 'Arguments Prompt');
    assert.deepEqual(args.arguments.map((a) => [a.name, a.required]), [['city', true], ['state', false]]);
    assert.equal(await offers.prompts('everything'), await offers.prompts('everything'));
  });

  it('gets a prompt with arguments, audited with its origin', async () => {
    audit.length = 0;
    const outcome = await offers.get({ server: 'everything', name: 'args-prompt', args: { city: 'Paris', state: 'TX' }, origin: 'cli' });
    assert.deepEqual(outcome, { kind: 'ok', messages: [{ role: 'user', kind: 'text', text: "What's weather in Paris, TX?" }] });
    assert.equal(audit.length, 1);
    assert.equal(audit[0].tool, 'prompts/get');
    assert.equal(audit[0].origin, 'cli');
    assert.equal(audit[0].outcome, 'ok');
    const embedded = await offers.get({ server: 'everything', name: 'resource-prompt', args: { resourceType: 'Text', resourceId: '3' }, origin: 'palette' });
    assert.ok(embedded.kind === 'ok' && embedded.messages.some((m) => m.kind === 'resource' && m.part.uri.includes('/3')), JSON.stringify(embedded));
    const bad = await offers.get({ server: 'everything', name: 'no-such-prompt', args: {}, origin: 'cli' });
    assert.equal(bad.kind, 'failed');
  });

  it('completes a prompt argument (with context) and a template variable', async () => {
    const departments = await offers.complete({ server: 'everything', ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'S' } });
    assert.deepEqual([...departments.values].sort(), ['Sales', 'Support']);
    const names = await offers.complete({ server: 'everything', ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'name', value: '' }, context: { department: 'Sales' } });
    assert.deepEqual(names.values, ['David', 'Eve', 'Frank']);
    const ids = await offers.complete({ server: 'everything', ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, argument: { name: 'resourceId', value: '1' } });
    assert.ok(ids.values.length > 0 && ids.values.every((v) => v.startsWith('1')), JSON.stringify(ids));
    const none = await offers.complete({ server: 'everything', ref: { type: 'ref/prompt', name: 'no-such-prompt' }, argument: { name: 'x', value: '' } });
    assert.deepEqual(none.values, []);
  });

  it('sets the log level (logging/setLevel), and the server log shows the messages that follow at their level', async function () {
    this.timeout(60_000);
    host.logs.length = 0;
    await offers.setLogLevel('everything', 'debug');
    assert.ok(host.logs.some((l) => l.includes('Log level: debug')), host.logs.join('\n'));
    // server-everything sends a message at a random level every few seconds once asked to.
    const call = await host.pipeline.call({ server: 'everything', tool: 'toggle-simulated-logging', args: {}, origin: 'api' });
    assert.equal(call.kind, 'ok', JSON.stringify(call));
    await until("a log message from the server", () => host.logs.some((l) => /^everything (info|warn|error) \[(debug|info|notice|warning|error|critical|alert|emergency)\] .*-level message/.test(l)), 30_000);
    await offers.setLogLevel('everything', 'emergency');
    await assert.rejects(offers.setLogLevel('everything', 'loud' as never), /not a log level/);
  });
});
