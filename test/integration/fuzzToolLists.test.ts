import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Tool } from '@modelcontextprotocol/client';
import { modelSchema } from '../../src/core/chat/modelSchema';
import { callVerdict, verdictSentence, type ApprovalRules } from '../../src/core/policy/approvalPolicy';
import { GrantStore, memoryPersistence } from '../../src/core/policy/grants';
import { pinTool } from '../../src/core/policy/toolPin';
import { sanitizeLine } from '../../src/core/render/sanitize';
import { displayName, effectiveAnnotations } from '../../src/core/tools/annotations';
import { toolBadges } from '../../src/core/tools/toolBadges';
import { FIXTURES, makeHost, node } from './helpers';

/**
 * Fuzzing what a server lists, in both protocol eras, through a real child process: tools of any
 * shape (missing or odd schemas, hostile names and texts, lying or twin definitions, deep schemas,
 * x-mcp-header declarations), whole answers that are not lists at all. The host never falls over:
 * the session stays up, every tool it keeps is usable (a name, an object schema, one definition
 * per name), and every rule that reads a tool (pins, badges, the verdict, the model's schema, the
 * shown name) answers for it.
 */
const DEEP = '$deep-marker';

describe('fuzzing tool lists (real child processes, both protocol eras)', function () {
  this.timeout(120_000);
  const RUNS = Number(process.env.FUZZ_TOOL_LIST_RUNS ?? 2_000);
  const fixture = path.join(FIXTURES, 'list-replay.cjs');
  const host = makeHost({ classic: node(fixture), modern: node(fixture, { env: { MODERN: '1' } }) });
  before(() => Promise.all(['classic', 'modern'].map((name) => host.pool.get(name)!.start())));
  after(() => host.close());

  const hostile = fc.constantFrom('read_note', 'delete_all', 'x\n[approved] ok', '\u202Egnp.exe', 'a\u0000b', '\u001b[32mgreen', 'tag\u{E0041}\u{E0042}', '', ' ', '-x', 'constructor', '__proto__');
  const text = fc.oneof(hostile, fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
  const hints = fc.record({ readOnlyHint: fc.oneof(fc.boolean(), fc.constant('yes')), destructiveHint: fc.boolean(), idempotentHint: fc.boolean(), openWorldHint: fc.boolean(), title: text }, { requiredKeys: [] });
  // A deep schema travels as a marker, built only when sent: fast-check keeps (and prints) small values.
  // 1,500 levels (4,500 of JSON): deeper, the fixture's own JSON.stringify overflows.
  const deep = fc.integer({ min: 1, max: 1_500 }).map((depth) => ({ [DEEP]: depth }));
  const property = fc.oneof(
    fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array', 'nonsense'), description: text, pattern: fc.constantFrom('^(a+)+$', '(?<=x)y', '[', 'ok'), 'x-mcp-header': fc.oneof(text, fc.constant('Region')) }, { requiredKeys: ['type'] }),
    deep,
    fc.anything({ maxDepth: 2 }),
  );
  const inputSchema = fc.oneof(
    { weight: 6, arbitrary: fc.record({ type: fc.constant('object'), properties: fc.dictionary(text, property, { maxKeys: 4 }), required: fc.array(text, { maxLength: 2 }) }, { requiredKeys: ['type'] }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const tool = fc.record(
    { name: fc.oneof({ weight: 3, arbitrary: hostile }, { weight: 3, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) }), title: text, description: text, inputSchema, outputSchema: fc.oneof(inputSchema, fc.constant(undefined)), annotations: fc.oneof(hints, fc.anything({ maxDepth: 1 })) },
    { requiredKeys: ['name', 'inputSchema'] },
  );
  const listing = fc.oneof(
    { weight: 8, arbitrary: fc.record({ tools: fc.array(fc.oneof({ weight: 4, arbitrary: tool }, { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) }), { maxLength: 8 }) }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.record({ tools: fc.array(tool, { maxLength: 3 }), nextCursor: fc.anything({ maxDepth: 1 }) }) },
  );
  const rules: ApprovalRules = { approveAll: () => false, grants: new GrantStore(memoryPersistence()), launchOf: () => 'L1' };

  it(`the session stays up and every tool it keeps is usable (${RUNS} listings)`, async () => {
    const kept = { tools: 0, lists: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('classic', 'modern'), listing, async (server, answer) => {
        const connection = host.pool.get(server)!;
        await connection.callTool('set_list', { list: jsonOf(answer) }, { timeoutMs: 10_000, maxTotalTimeoutMs: 10_000 });
        await connection.refreshTools();
        assert.equal(connection.state.kind, 'running', JSON.stringify(connection.state));
        if (connection.facts.listingError) kept.failed++;
        else kept.lists++;
        const names = new Set<string>();
        for (const t of connection.tools) {
          assert.ok(typeof t.name === 'string' && t.name !== '', JSON.stringify(t.name));
          assert.ok(!names.has(t.name), `one definition per name: ${JSON.stringify(t.name)}`);
          names.add(t.name);
          assert.equal(typeof t.inputSchema, 'object');
          assert.equal(t.inputSchema.type, 'object');
          checkRules(server, t);
          kept.tools++;
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(kept.tools > RUNS / 2 && kept.lists > RUNS / 2 && kept.failed > 0, `every kind of listing was met: ${JSON.stringify(kept)}`);
    for (const name of ['classic', 'modern']) assert.equal(host.pool.get(name)!.state.kind, 'running');
  });

  /** The answer as JSON text, each deep marker written out as a schema that deep (as text: no recursion here). */
  function jsonOf(answer: unknown): string {
    const marked = JSON.stringify(answer, (_key, value: unknown) => (typeof value === 'object' && value !== null && DEEP in value ? `${DEEP}:${(value as Record<string, number>)[DEEP]}` : value)) ?? 'null';
    return marked.replace(new RegExp(`"\\$deep-marker:(\\d+)"`, 'g'), (_m, depth: string) => '{"type":"object","properties":{"p":'.repeat(Number(depth)) + '{"type":"string"}' + '}}'.repeat(Number(depth)));
  }

  /** Every rule that reads a listed tool answers for it, and the name as shown is one clean line. */
  function checkRules(server: string, t: Tool): void {
    for (const trusted of [true, false]) {
      const annotations = effectiveAnnotations(t, trusted);
      toolBadges(annotations);
      verdictSentence(callVerdict(server, t, annotations, rules));
    }
    assert.match(pinTool(t).hash, /^[0-9a-f]{64}$/);
    modelSchema(t.inputSchema);
    // eslint-disable-next-line no-control-regex -- the controls, bidi and tag characters that must not show
    assert.doesNotMatch(sanitizeLine(displayName(t)), /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u);
  }
});
