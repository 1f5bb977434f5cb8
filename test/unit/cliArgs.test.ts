import * as assert from 'node:assert/strict';
import { CliError, parseArgs } from '../../src/cli/args';

describe('CLI arguments', () => {
  it('reads commands, positionals and both flag spellings', () => {
    const a = parseArgs(['call', 'demo', 'read_note', '--args={"name":"x"}', '--config', 'c.json', '--yes', '--json', '--timeout', '5']);
    assert.equal(a.command, 'call');
    assert.deepEqual(a.positional, ['demo', 'read_note']);
    assert.equal(a.args, '{"name":"x"}');
    assert.equal(a.config, 'c.json');
    assert.equal(a.yes, true);
    assert.equal(a.trustConfig, false);
    assert.equal(parseArgs(['tools', '--config', 'c.json', '--trust-config']).trustConfig, true);
    assert.equal(a.json, true);
    assert.equal(a.timeoutSeconds, 5);
    assert.equal(parseArgs(['-h']).help, true);
    const dashed = parseArgs(['call', '--config', 'c.json', '--', 'demo', '-x', '--yes']);
    assert.deepEqual([dashed.positional, dashed.yes], [['demo', '-x', '--yes'], false], 'after --, words are names, not options');
  });

  it('keeps every --rules FILE, in order (the other value flags keep their last)', () => {
    assert.deepEqual(parseArgs(['call', 'a', 'b', '--rules', 'one.json', '--rules=two.json']).rules, ['one.json', 'two.json']);
    assert.deepEqual(parseArgs(['call', 'a', 'b']).rules, []);
    assert.throws(() => parseArgs(['call', '--rules']), /--rules needs a value/);
  });

  it('rejects unknown options, missing values and a bad timeout as usage errors (exit 2)', () => {
    const usage = (argv: string[], message: RegExp) =>
      assert.throws(() => parseArgs(argv), (err: unknown) => err instanceof CliError && err.code === 2 && message.test(err.message));
    usage(['tools', '--bogus'], /Unknown option "--bogus"/);
    usage(['tools', '--config'], /--config needs a value/);
    usage(['tools', '--timeout', '0'], /--timeout must be a positive number/);
    usage(['tools', '--yes=1'], /--yes takes no value/);
  });
});
