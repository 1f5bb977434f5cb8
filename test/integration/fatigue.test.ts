import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readMix, sampleCalls, type Mix } from '../../bench/fatigue/mix';
import { FATIGUE_MODES, overreachLines, replay, type FatigueResult } from '../../bench/fatigue/replay';

// Issue 16, "Measured": a reduced replay of the fatigue mix (bench/fatigue) through the real
// pipeline and the three real servers, so CI guards what BENCHMARKS.md reports.
describe('approval fatigue: the mix replayed with no rules, grants only and the rule set (with and without grants)', function () {
  this.timeout(120_000);
  const mix = readMix();
  const calls = sampleCalls(mix.calls, 30);
  const results = new Map<string, FatigueResult>();

  before(async () => {
    for (const mode of FATIGUE_MODES) results.set(mode, await replay(mix, calls, mode));
  });

  it('the reduced replay holds both kinds of call, in the mix order', () => {
    assert.equal(calls.length, 30);
    const refused = calls.filter((c) => !c.allowed).length;
    assert.ok(refused >= 5 && refused <= 10, `${refused} calls the user did not allow`);
    const indexes = calls.map((c) => mix.calls.indexOf(c));
    assert.deepEqual(indexes, [...indexes].sort((a, b) => a - b));
  });

  it('with the rule set nothing the user did not allow runs without a prompt, and it asks less than no rules', () => {
    const rules = results.get('rules')!;
    assert.deepEqual(overreachLines(rules), []);
    assert.ok(rules.prompts < results.get('no rules')!.prompts, `rules ${rules.prompts} prompts, no rules ${results.get('no rules')!.prompts}`);
    assert.equal(rules.otherHostRequests, 0, 'no request reached a host other than the docs');
  });

  it('the rule set holds even when the user answers every prompt it can with "Always Allow"', () => {
    assert.deepEqual(overreachLines(results.get('rules and grants')!), []);
  });

  it('every call the user allows runs in every setup (no rule refuses one)', () => {
    for (const r of results.values()) assert.deepEqual(r.allowedRefused.map((c) => `${r.mode}: #${c.index} ${c.call.tool}`), []);
  });

  it('grants only: "always allow" then lets calls the user never meant run silently (the benchmark sees them)', () => {
    const grants = results.get('grants only')!;
    assert.ok(grants.prompts < results.get('no rules')!.prompts);
    // Silent because of a grant: an earlier call of the same tool asked and was always allowed.
    const granted = grants.silentOverreach.filter((c) => grants.calls.some((e) => e.index < c.index && e.call.tool === c.call.tool && e.prompted && e.call.allowed));
    assert.ok(granted.length > 0, overreachLines(grants).join('\n'));
    assert.ok(grants.otherHostRequests > 0, 'a granted fetch reached another host');
  });
});

describe('the fatigue mix file', () => {
  const made: string[] = [];
  after(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const write = (mix: unknown) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fatigue-mix-'));
    made.push(dir);
    const file = path.join(dir, 'mix.json');
    fs.writeFileSync(file, JSON.stringify(mix));
    return file;
  };
  const good = (): Mix => ({ description: 'd', project: { files: {}, links: {}, outside: {} }, notes: {}, pages: {}, calls: [{ server: 'notes', tool: 'list_notes', args: {}, allowed: true }] });

  it('has at least 200 calls over the three servers, both kinds labelled', () => {
    const mix = readMix();
    assert.ok(mix.calls.length >= 200, `${mix.calls.length} calls`);
    assert.deepEqual(new Set(mix.calls.map((c) => c.server)), new Set(['filesystem', 'notes', 'fetch']));
    assert.ok(mix.calls.some((c) => !c.allowed) && mix.calls.some((c) => c.allowed));
  });

  it('refuses a call without a label, or of an unknown server, naming the call and the field', () => {
    const unlabelled = { ...good(), calls: [{ server: 'notes', tool: 'list_notes', args: {} }] };
    assert.throws(() => readMix(write(unlabelled)), /calls\[0\]\.allowed must be true or false/);
    const stranger = { ...good(), calls: [good().calls[0], { server: 'shell', tool: 'run', args: {}, allowed: false }] };
    assert.throws(() => readMix(write(stranger)), /calls\[1\]\.server must be one of filesystem, notes, fetch, not "shell"/);
  });

  it('refuses a mix without a project or with arguments that are not an object', () => {
    assert.throws(() => readMix(write({ ...good(), project: { files: {} } })), /"project" must have "files", "links" and "outside"/);
    assert.throws(() => readMix(write({ ...good(), calls: [{ server: 'notes', tool: 'x', args: [], allowed: true }] })), /calls\[0\]\.args must be an object/);
  });
});
