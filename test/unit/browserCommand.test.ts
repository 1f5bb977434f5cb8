import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { browserArgv, parseBrowserCommand } from '../../src/cli/browserCommand';
import { parseArgs } from '../../src/cli/args';

describe('the CLI browser command (--browser, BROWSER)', () => {
  it('splits words at spaces; quotes group words that hold spaces; nothing else is interpreted', () => {
    assert.deepEqual(parseBrowserCommand('firefox --new-window', 'BROWSER'), ['firefox', '--new-window']);
    assert.deepEqual(parseBrowserCommand('"C:\\Program Files\\B\\b.exe" -x \'a b\' ""', 'BROWSER'), ['C:\\Program Files\\B\\b.exe', '-x', 'a b', '']);
    assert.deepEqual(parseBrowserCommand('  w3m  ', 'BROWSER'), ['w3m']);
    assert.deepEqual(parseBrowserCommand('open -a "Safari" *', 'BROWSER'), ['open', '-a', 'Safari', '*']);
  });

  it('a value that names an existing file is that program, even with spaces in its path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'My Tools '));
    try {
      const program = path.join(dir, 'open page');
      fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
      assert.deepEqual(parseBrowserCommand(program, 'BROWSER'), [program]);
      // A file that is not there, or a folder, is still a command line.
      assert.deepEqual(parseBrowserCommand(`${dir}/missing -x`, 'BROWSER'), `${dir}/missing -x`.split(' '));
      assert.deepEqual(parseBrowserCommand(dir, 'BROWSER'), dir.split(' '));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses shell syntax, unclosed quotes and empty commands with a sentence that says what to do', () => {
    for (const bad of ['a; b', 'a && b', 'a | b', '$(id)', '`id`', 'a > f', 'a < f', 'a\nb', 'x $HOME']) {
      assert.throws(() => parseBrowserCommand(bad, 'BROWSER'), /^BrowserCommandError: BROWSER is run as a program with arguments, never by a shell: remove ; & \| \$ ` < > and line breaks from it\.$/, bad);
    }
    assert.throws(() => parseBrowserCommand('"firefox', '--browser'), /--browser: The double quote is not closed\./);
    assert.throws(() => parseBrowserCommand('   ', '--browser'), /--browser is empty: give the program that opens a web page, as in --browser firefox\./);
    assert.throws(() => parseBrowserCommand('""', '--browser'), /--browser is empty/);
  });

  it('puts the URL last, or where %s stands', () => {
    const url = 'https://as.example/authorize?a=1&b=%20';
    assert.deepEqual(browserArgv(['b', '-x'], url), ['b', '-x', url]);
    assert.deepEqual(browserArgv(['b', '--url=%s', '-y'], url), ['b', `--url=${url}`, '-y']);
  });

  it('--browser is checked with the other options: a bad one is a usage error', () => {
    assert.equal(parseArgs(['tools', '--browser', 'firefox']).browser, 'firefox');
    assert.throws(() => parseArgs(['tools', '--browser', 'firefox; rm -rf ~']), (err: Error & { code?: number }) => err.code === 2 && /never by a shell/.test(err.message));
    assert.throws(() => parseArgs(['tools', '--browser']), /--browser needs a value/);
  });
});
