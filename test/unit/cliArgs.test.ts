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

describe('CLI arguments: --rate-limit PER_SECOND[/BURST] (serve)', () => {
  it('reads the calls a second and the burst, mirroring the mcpToolHost.rateLimit.* settings', () => {
    assert.deepEqual(parseArgs(['serve', '--rate-limit', '50/100']).rateLimit, { perSecond: 50, burst: 100 });
    assert.deepEqual(parseArgs(['serve', '--rate-limit=0.5/2']).rateLimit, { perSecond: 0.5, burst: 2 });
    // Without a burst: the default one (20), or the rate itself where that is more.
    assert.deepEqual(parseArgs(['serve', '--rate-limit', '5']).rateLimit, { perSecond: 5, burst: 20 });
    assert.deepEqual(parseArgs(['serve', '--rate-limit', '50']).rateLimit, { perSecond: 50, burst: 50 });
    assert.equal(parseArgs(['serve']).rateLimit, undefined);
  });

  it('refuses a rate or burst out of range, or not a number, saying which and what it takes', () => {
    const refused = (value: string) => {
      try {
        parseArgs(['serve', '--rate-limit', value]);
      } catch (err) {
        assert.ok(err instanceof CliError);
        assert.equal(err.code, 2);
        return err.message;
      }
      return assert.fail(`--rate-limit ${value} was taken`);
    };
    const usage = 'PER_SECOND[/BURST]: calls a second a server may get (at least 0.1), then how many it may get at once (a whole number, at least 1)';
    assert.equal(refused('fast'), `--rate-limit must be ${usage}, not "fast".`);
    assert.equal(refused('0'), `--rate-limit must be ${usage}, not "0": the rate is below 0.1.`);
    assert.equal(refused('5/0'), `--rate-limit must be ${usage}, not "5/0": the burst is below 1.`);
    assert.equal(refused('5/2.5'), `--rate-limit must be ${usage}, not "5/2.5": the burst is not a whole number.`);
    assert.equal(refused('5/'), `--rate-limit must be ${usage}, not "5/".`);
    assert.equal(refused('1e400'), `--rate-limit must be ${usage}, not "1e400".`);
  });
});
