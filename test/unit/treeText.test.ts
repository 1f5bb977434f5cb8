import * as assert from 'node:assert/strict';
import { effectiveAnnotations } from '../../src/core/tools/annotations';
import { formatArgument, MAX_ARGUMENTS_SHOWN, summarizeArguments } from '../../src/core/tools/schemaSummary';
import { checkServerName, entryFromCommandLine, entryFromUrl, splitCommandLine, suggestServerName } from '../../src/core/config/newServerEntry';
import { badgeDescription, toolBadges, toolRisk } from '../../src/core/tools/toolBadges';

describe('what the Tools view says about a tool', () => {
  const trusted = (annotations: Record<string, boolean>) => effectiveAnnotations({ annotations }, true);

  it('shows declared hints as plain words and assumed ones with "?"', () => {
    assert.equal(badgeDescription(trusted({ readOnlyHint: true, openWorldHint: false })), 'read-only');
    assert.equal(badgeDescription(trusted({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false })), 'destructive · idempotent');
    assert.equal(badgeDescription(trusted({ readOnlyHint: true, openWorldHint: true })), 'read-only · open-world');
    assert.equal(badgeDescription(effectiveAnnotations({}, true)), 'destructive? · open-world?');
    assert.equal(badgeDescription(trusted({ readOnlyHint: true })), 'read-only · open-world?');
  });

  it('says "writes" for a tool that changes data but deletes nothing', () => {
    assert.equal(badgeDescription(trusted({ readOnlyHint: false, destructiveHint: false, openWorldHint: false })), 'writes');
    // read-only left to its default (false): "writes" rests on an assumption.
    assert.equal(badgeDescription(trusted({ destructiveHint: false, openWorldHint: false })), 'writes?');
  });

  it('marks every hint of an untrusted server as assumed, and says the hints are not trusted', () => {
    const a = effectiveAnnotations({ annotations: { readOnlyHint: true, openWorldHint: false } }, false);
    assert.equal(badgeDescription(a), 'destructive? · open-world? · untrusted');
    assert.deepEqual(toolBadges(a).map((b) => b.assumed), [true, true]);
  });

  it('colors by the worst risk: destructive, then open-world, then writes, then read-only', () => {
    assert.equal(toolRisk(effectiveAnnotations({}, true)), 'destructive');
    assert.equal(toolRisk(trusted({ readOnlyHint: true, openWorldHint: true })), 'open-world');
    assert.equal(toolRisk(trusted({ destructiveHint: false, openWorldHint: false })), 'writes');
    assert.equal(toolRisk(trusted({ readOnlyHint: true, openWorldHint: false })), 'read-only');
  });
});

describe('the arguments summary of a tool', () => {
  it('lists required arguments first, with types, limits and defaults', () => {
    const { arguments: args, more } = summarizeArguments({
      type: 'object',
      properties: {
        maxChars: { type: 'integer', minimum: 1, maximum: 100000, default: 2000 },
        url: { type: 'string', format: 'uri', description: 'What to fetch' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        code: { type: 'string', minLength: 1 },
        pair: { type: 'array', minItems: 2, maxItems: 2 },
        one: { type: 'array', maxItems: 1 },
        mode: { enum: ['fast', 'slow'] },
        anything: {},
      },
      required: ['url'],
    });
    assert.equal(more, 0);
    assert.deepEqual(args.map(formatArgument), [
      'url* (string, format uri): What to fetch',
      'maxChars (integer, 1-100000, default 2000)',
      'tags (string[], at most 5 items)',
      'code (string, at least 1 character)',
      'pair (any[], exactly 2 items)',
      'one (any[], at most 1 item)',
      'mode ("fast" | "slow")',
      'anything (any)',
    ]);
  });

  it('copes with schemas a server got wrong, and cuts long lists', () => {
    assert.deepEqual(summarizeArguments(undefined), { arguments: [], more: 0 });
    assert.deepEqual(summarizeArguments({ properties: 'nope' }), { arguments: [], more: 0 });
    assert.equal(summarizeArguments({ properties: { a: null, b: 3 }, required: 'a' }).arguments.map(formatArgument).join(), 'a (any),b (any)');
    const many = Object.fromEntries(Array.from({ length: MAX_ARGUMENTS_SHOWN + 5 }, (_, i) => [`p${i}`, { type: 'string' }]));
    assert.equal(summarizeArguments({ properties: many }).more, 5);
  });
});

describe('Add Server: entries and names', () => {
  it('splits a command line like a shell, quotes and escapes included', () => {
    assert.deepEqual(splitCommandLine('npx -y @modelcontextprotocol/server-everything'), ['npx', '-y', '@modelcontextprotocol/server-everything']);
    assert.deepEqual(splitCommandLine(`node "/my dir/server.js" --name 'a b' x\\ y ""`), ['node', '/my dir/server.js', '--name', 'a b', 'x y', '']);
    assert.deepEqual(splitCommandLine('python -c "print(\\"hi\\")"'), ['python', '-c', 'print("hi")']);
    assert.match(String(splitCommandLine('node "open')), /double quote is not closed/);
  });

  it('builds a stdio entry or an http entry, or says what is wrong', () => {
    assert.deepEqual(entryFromCommandLine(' uvx mcp-server-git '), { command: 'uvx', args: ['mcp-server-git'] });
    assert.match(String(entryFromCommandLine('   ')), /Enter the command/);
    assert.deepEqual(entryFromUrl('https://example.com/mcp'), { type: 'http', url: 'https://example.com/mcp' });
    assert.match(String(entryFromUrl('ftp://x')), /http:\/\/ or https:\/\//);
  });

  it('suggests a short free name from the package, script or host', () => {
    assert.equal(suggestServerName({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }), 'everything');
    assert.equal(suggestServerName({ command: 'uvx', args: ['mcp-server-git'] }), 'git');
    assert.equal(suggestServerName({ command: 'npx', args: ['-y', '@scope/github-mcp-server@1.2.3'] }), 'github');
    assert.equal(suggestServerName({ command: 'node', args: ['/home/me/tools/notes-server.js'] }), 'notes');
    // a script with a generic name is named by its package's folder, past build folders
    assert.equal(suggestServerName({ command: 'node', args: ['/n/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/tmp'] }), 'filesystem');
    assert.equal(suggestServerName({ command: 'python', args: ['C:\\tools\\weather\\src\\main.py'] }), 'weather');
    assert.equal(suggestServerName({ command: 'node', args: ['index.js'] }), 'index');
    assert.equal(suggestServerName({ type: 'http', url: 'https://mcp.example.com/mcp' }), 'example');
    assert.equal(suggestServerName({ command: 'npx', args: ['-y', 'server-everything'] }, new Set(['everything'])), 'everything-2');
  });

  it('refuses names settings would reject, and names already taken', () => {
    assert.equal(checkServerName('my server', new Set()), undefined);
    assert.match(String(checkServerName(' lead', new Set())), /letters, digits/);
    assert.match(String(checkServerName('a/b', new Set())), /letters, digits/);
    assert.match(String(checkServerName('demo', new Set(['demo']))), /already have a server named "demo"/);
  });
});
