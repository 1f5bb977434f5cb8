import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES, node } from './helpers';
import { CLI, runCli } from './cliRun';

// Issue 31, "The screen and the disk": what a server's binary content leaves on the disk, through
// the CLI as a user runs it, with a real server (fixtures/servers/result-flood.cjs) that sends
// floods of images and content of types a browser or the OS would run.

/** Extensions a browser, VS Code or the OS would render with scripts or run. */
const ACTIVE_EXTENSION = /\.(html?|xhtml|svg|svgz|js|mjs|xml|xsl|hta|exe|bat|cmd|ps1|vbs|msi|lnk|scr|jar)$/i;

describe('the disk: binary results of the CLI (issue 31)', function () {
  this.timeout(60_000);
  let dir: string;
  /** The CLI's temp folder in these tests: whatever it leaves there, it left for good. */
  let tmp: string;
  const env = () => ({ ...process.env, XDG_STATE_HOME: dir, TMPDIR: tmp, TMP: tmp, TEMP: tmp });
  const run = (...args: string[]) => runCli([...args, '--config', 'servers.json'], { cwd: dir, env: env() });

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-results-'));
    tmp = path.join(dir, 'tmp');
    fs.writeFileSync(path.join(dir, 'servers.json'), JSON.stringify({ servers: { flood: node(path.join(FIXTURES, 'result-flood.cjs')) } }));
  });
  beforeEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a flood of images from one read-only call leaves nothing behind, and says how to keep them', async () => {
    const call = await run('call', 'flood', 'images', '--args', '{"count":200,"kib":20}');
    assert.equal(call.code, 0, call.stderr);
    assert.deepEqual(fs.readdirSync(tmp), [], 'nothing left in the temp folder');
    assert.equal(call.stdout.match(/\[image image\/png, 20480 bytes\]/g)?.length, 200, call.stdout.slice(0, 500));
    assert.match(call.stdout, /--files DIR/);
  });

  it('content of an active type leaves nothing behind either', async () => {
    const call = await run('call', 'flood', 'active');
    assert.equal(call.code, 0, call.stderr);
    assert.deepEqual(fs.readdirSync(tmp), []);
  });

  it('--files DIR keeps them there; an active type gets an inert extension, and the output says so', async () => {
    const files = path.join(dir, 'kept');
    const call = await run('call', 'flood', 'active', '--files', files);
    assert.equal(call.code, 0, call.stderr);
    const names = fs.readdirSync(files).sort();
    assert.equal(names.length, 8, names.join(', '));
    for (const name of names) assert.doesNotMatch(name, ACTIVE_EXTENSION);
    assert.deepEqual(names.filter((n) => n.endsWith('.txt')).map((n) => n.replace(/^.*?\.(?=[a-z]+\.txt$)/, '')).sort(), ['hta.txt', 'html.txt', 'js.txt', 'svg.txt', 'svg.txt', 'xhtml.txt']);
    assert.match(call.stdout, /image\/svg\+xml, \d+ bytes\] saved to .*\.svg\.txt \(saved as text: image\/svg\+xml can run scripts when opened\)/);
    assert.deepEqual(fs.readdirSync(tmp), []);
    // The type is the server's text: shown safely, never naming the file.
    assert.match(call.stdout, /^\[image image\/png, 1 bytes\] saved to \S+-image-7\.bin$/m);
    // eslint-disable-next-line no-control-regex -- the escape the server put in the type
    assert.doesNotMatch(call.stdout, /[\u001b\u202e]/);
  });
});
