import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigFileError, detectAndConvert } from '../../src/core/config/formats';
import { importSources, scanImportSources } from '../../src/core/config/importSources';
import { MAX_SERVER_FILE_BYTES, readServerFile, readWorkspaceServerFiles, readWorkspaceServerNames } from '../../src/core/config/serverFiles';
import { execFileSync } from 'node:child_process';
import { parseServers } from '../../src/core/config/serverConfig';

describe('configuration file formats', () => {
  it('a settings.json given as a server file: its other mcpToolHost settings (rules, approve-all) are said not to be read', () => {
    const out = detectAndConvert(JSON.stringify({ 'mcpToolHost.servers': { ev: { command: 'node' } }, 'mcpToolHost.rules': [{ name: 'no', server: '*', tool: '*', effect: 'deny' }], 'mcpToolHost.approveAllCalls': true, 'editor.fontSize': 12 }), '/u/settings.json');
    assert.deepEqual(out.warnings, ['"mcpToolHost.rules", "mcpToolHost.approveAllCalls" are not read from this file: only "mcpToolHost.servers" is (give the CLI its rules with --rules FILE).']);
    assert.deepEqual(detectAndConvert(JSON.stringify({ 'mcpToolHost.servers': { ev: { command: 'node' } } }), '/u/settings.json').warnings, []);
  });

  it("attacker: a repository's names and keys with terminal escapes, clipboard writes and invisible characters are printed escaped in every error and warning", () => {
    const esc = String.fromCharCode(27);
    const bel = String.fromCharCode(7);
    const text = JSON.stringify({
      servers: {
        ok: { command: 'node', [`x${esc}]52;c;ZWNobyBwd25lZA==${bel}`]: 1, env: { [`K${esc}[8m`]: 1 } },
        [`n${esc}[8mhidden${esc}[0m`]: { command: 'node' },
        [`zero\u200bwidth`]: { command: 'node' },
        plain: { command: 'node', [`extra\u202ekey`]: true },
      },
    });
    const out = detectAndConvert(text, '/repo/.vscode/mcp.json');
    const parsed = parseServers(out.servers, 'workspace');
    const messages = [...out.warnings, ...parsed.errors.map((e) => e.message), ...parsed.warnings];
    assert.ok(messages.length >= 4, messages.join('\n'));
    const hidden = (c: string) => { const n = c.charCodeAt(0); return n < 0x20 || (n >= 0x7f && n <= 0x9f) || (n >= 0x200b && n <= 0x200f) || (n >= 0x202a && n <= 0x202e) || (n >= 0x2060 && n <= 0x2069); };
    for (const m of messages) assert.ok(![...m].some(hidden), `printed raw: ${JSON.stringify(m)}`);
    assert.ok(messages.some((m) => m.includes('\\u001B]52;c;')), messages.join('\n'));
    assert.ok(messages.some((m) => m.includes('Server "n\\u001B[8mhidden\\u001B[0m": names may use')), messages.join('\n'));
  });

  it('reads VS Code mcp.json with comments and trailing commas, maps sse to http and carries inputs', () => {
    const text = `{
      // a comment
      "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true },],
      "servers": {
        "fs": { "type": "stdio", "command": "npx", "args": ["-y", "pkg"], "env": { "PORT": 8080, "KEY": "\${input:api-key}" }, "dev": { "watch": "src/**" } },
        "remote": { "type": "sse", "url": "https://example.com/sse", "headers": { "X": "1" } },
      },
    }`;
    const out = detectAndConvert(text, '/w/.vscode/mcp.json');
    assert.equal(out.format, 'vscode');
    assert.deepEqual(out.servers, {
      fs: { type: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { PORT: '8080', KEY: '${input:api-key}' }, dev: { watch: 'src/**' } },
      remote: { type: 'http', url: 'https://example.com/sse', headers: { X: '1' } },
    });
    assert.deepEqual(out.inputs, [{ id: 'api-key', type: 'promptString', description: 'API key', password: true, default: undefined, options: undefined }]);
    assert.deepEqual(out.warnings, []);
    const parsed = parseServers(out.servers, 'workspace');
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.servers.map((s) => s.spec.type), ['stdio', 'http']);
  });

  it('reads Claude Desktop / Cursor / .mcp.json mcpServers, with ${VAR} and ${VAR:-default} as environment variables', () => {
    const text = JSON.stringify({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-fs', '${HOME}/docs'], env: { TOKEN: '${MY_TOKEN:-x}' }, autoApprove: ['read'] },
        remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } },
        legacy: { type: 'sse', url: 'https://example.com/sse' },
        here: { command: 'node', args: ['${workspaceFolder}/s.js'] },
      },
    });
    const out = detectAndConvert(text, '.mcp.json');
    assert.equal(out.format, 'claude');
    assert.deepEqual(out.servers, {
      files: { command: 'npx', args: ['-y', 'server-fs', '${env:HOME}/docs'], env: { TOKEN: '${env:MY_TOKEN:-x}' } },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${env:API_KEY}' } },
      legacy: { type: 'http', url: 'https://example.com/sse' },
      here: { command: 'node', args: ['${workspaceFolder}/s.js'] },
    });
    assert.deepEqual(out.warnings, [
      'Server "files": ignored "autoApprove" (not supported by MCP Tool Host).',
    ]);
    assert.deepEqual(parseServers(out.servers, 'user').errors, []);
  });

  it('keeps every key of ours in the other formats, toolTimeouts included', () => {
    for (const text of [
      '{ "mcpServers": { "s": { "command": "x", "timeoutSeconds": 5, "toolTimeouts": { "slow": 600 } } } }',
      '{ "servers": { "s": { "type": "stdio", "command": "x", "timeoutSeconds": 5, "toolTimeouts": { "slow": 600 } } }, "inputs": [] }',
    ]) {
      const out = detectAndConvert(text, 'mcp.json');
      assert.deepEqual(out.warnings, [], text);
      const [def] = parseServers(out.servers, 'user').servers;
      assert.deepEqual([def.timeoutSeconds, def.toolTimeouts], [5, { slow: 600 }], text);
    }
  });

  it('reads our own format and a settings.json untouched, so parseServers reports their problems', () => {
    const ours = detectAndConvert('{ "servers": { "a": { "command": "x", "trustAnnotations": true, "typo": 1 } } }', 'servers.json');
    assert.equal(ours.format, 'mcpToolHost');
    assert.deepEqual(ours.servers, { a: { command: 'x', trustAnnotations: true, typo: 1 } });
    assert.match(parseServers(ours.servers, 'user').errors[0].message, /unknown key "typo"/);
    const settings = detectAndConvert('{ "editor.tabSize": 2, /* c */ "mcpToolHost.servers": { "b": { "url": "https://x" } } }', 'settings.json');
    assert.equal(settings.format, 'mcpToolHost');
    assert.deepEqual(settings.servers, { b: { url: 'https://x' } });
  });

  it('tells VS Code servers from ours by file name, inputs or sse', () => {
    assert.equal(detectAndConvert('{"servers": {}}', 'x/mcp.json').format, 'vscode');
    assert.equal(detectAndConvert('{"servers": {}, "inputs": []}', 'conf.json').format, 'vscode');
    assert.equal(detectAndConvert('{"servers": {"a": {"type": "sse", "url": "https://x"}}}', 'conf.json').format, 'vscode');
    assert.equal(detectAndConvert('{"servers": {}}', '.mcp.json').format, 'mcpToolHost');
    assert.equal(detectAndConvert('{"mcp": {"servers": {"a": {"command": "x"}}}}', 'settings.json').format, 'vscode');
  });

  it('names the file, line and column of a syntax error', () => {
    assert.throws(() => detectAndConvert('{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}', 'conf.json'), (err: unknown) => {
      assert.ok(err instanceof ConfigFileError);
      assert.equal(err.message, 'conf.json: line 4, column 5: comma expected.');
      assert.equal(err.serverName, 'conf.json');
      return true;
    });
    assert.throws(() => detectAndConvert('', 'e.json'), /e\.json: the file is empty\./);
    assert.throws(() => detectAndConvert('[1]', 'a.json'), /a\.json: the file must hold a JSON object\./);
    assert.throws(() => detectAndConvert('{"other": 1}', 'a.json'), /a\.json: no servers found: expected "servers"/);
    assert.throws(() => detectAndConvert('{"mcpServers": []}', 'a.json'), /a\.json: "mcpServers" must be an object/);
  });

  it('keeps malformed entries and inputs for specific messages', () => {
    const out = detectAndConvert('{"servers": {"a": 5}, "inputs": [{"type": "promptString"}, {"id": "p", "type": "pickString", "options": ["x", "y"]}]}', 'mcp.json');
    assert.deepEqual(out.servers, { a: 5 });
    assert.deepEqual(out.warnings, ['inputs[0] has no "id"; it was ignored.']);
    assert.deepEqual(out.inputs.map((i) => [i.id, i.options]), [['p', ['x', 'y']]]);
  });
});

describe('import sources', () => {
  it('knows each platform\'s paths', () => {
    const files = (platform: NodeJS.Platform, home: string, env: Record<string, string>) => importSources(platform, home, env).map((s) => `${s.label}: ${s.file}`);
    assert.deepEqual(files('darwin', '/Users/u', {}), [
      'Claude Desktop: /Users/u/Library/Application Support/Claude/claude_desktop_config.json',
      'Cursor: /Users/u/.cursor/mcp.json',
      'VS Code: /Users/u/Library/Application Support/Code/User/mcp.json',
      'VS Code Insiders: /Users/u/Library/Application Support/Code - Insiders/User/mcp.json',
    ]);
    assert.deepEqual(files('win32', 'C:\\Users\\u', { APPDATA: 'D:\\Roaming' }), [
      'Claude Desktop: D:\\Roaming\\Claude\\claude_desktop_config.json',
      'Cursor: C:\\Users\\u\\.cursor\\mcp.json',
      'VS Code: D:\\Roaming\\Code\\User\\mcp.json',
      'VS Code Insiders: D:\\Roaming\\Code - Insiders\\User\\mcp.json',
    ]);
    assert.equal(importSources('win32', 'C:\\Users\\u', {})[0].file, 'C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    assert.deepEqual(files('linux', '/home/u', {}), [
      'Claude Desktop: /home/u/.config/Claude/claude_desktop_config.json',
      'Cursor: /home/u/.cursor/mcp.json',
      'VS Code: /home/u/.config/Code/User/mcp.json',
      'VS Code Insiders: /home/u/.config/Code - Insiders/User/mcp.json',
    ]);
    assert.equal(importSources('linux', '/home/u', { XDG_CONFIG_HOME: '/xdg' })[2].file, '/xdg/Code/User/mcp.json');
    assert.equal(importSources('linux', '/home/u', { XDG_CONFIG_HOME: 'relative' })[2].file, '/home/u/.config/Code/User/mcp.json');
  });
});

describe('scanning import sources', () => {
  it('lists the servers of the files that exist, with launch lines that leave env values out', async () => {
    const files: Record<string, string> = {
      '/c.json': JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server fs'], env: { TOKEN: 'secret-value' }, autoApprove: [] }, bad: { args: [] } } }),
      '/v.json': '{ "servers": { "remote": { "type": "sse", "url": "https://x/sse", "headers": { "Authorization": "Bearer secret-value" } } } }',
      '/broken.json': '{ "servers": ',
    };
    const read = async (file: string) => {
      if (files[file] === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return files[file];
    };
    const sources = ['/c.json', '/v.json', '/broken.json', '/absent.json'].map((file) => ({ label: file.slice(1), file }));
    const { candidates, problems } = await scanImportSources(sources, read);
    assert.deepEqual(
      candidates.map((c) => [c.source.label, c.name, c.launch, c.error ?? null, c.warnings]),
      [
        ['c.json', 'fs', "npx -y 'server fs'  (env: TOKEN)", null, ['Server "fs": ignored "autoApprove" (not supported by MCP Tool Host).']],
        ['c.json', 'bad', '(no command or url)', 'Server "bad": "command" is required for a stdio server (for example "npx").', []],
        ['v.json', 'remote', 'https://x/sse', null, []],
      ],
    );
    assert.deepEqual(candidates[2].entry, { type: 'http', url: 'https://x/sse', headers: { Authorization: 'Bearer secret-value' } });
    assert.ok(!candidates.some((c) => c.launch.includes('secret-value')));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^\/broken\.json: line 1, column \d+: /);
  });
});

describe('server files of a workspace', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-files-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads .vscode/mcp.json before .mcp.json as untrusted workspace servers, naming the file in every error', () => {
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), '{ "servers": { "a": { "type": "stdio", "command": "node" }, "broken": { "type": "stdio" } }, "inputs": [{ "id": "k", "type": "promptString" }] }');
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{ "mcpServers": { "a": { "command": "other" }, "b": { "url": "https://x/mcp" } } }');
    const result = readWorkspaceServerFiles([{ name: 'proj', path: dir }]);
    assert.deepEqual(result.servers.map((s) => [s.name, s.source, s.trustAnnotations]), [['a', 'workspace', false], ['b', 'workspace', false]]);
    assert.equal(result.servers[0].spec.type === 'stdio' && result.servers[0].spec.command, 'node');
    assert.deepEqual(result.errors.map((e) => [e.serverName, e.message]), [['broken', 'proj/.vscode/mcp.json: Server "broken": "command" is required for a stdio server (for example "npx").']]);
    assert.deepEqual(result.warnings, ['proj/.mcp.json: server "a" is also defined in proj/.vscode/mcp.json, which is used.']);
    // Each server carries where it was declared and that file's inputs, not another file's.
    assert.deepEqual(result.servers.map((s) => [s.declaredIn?.label, s.declaredIn?.id, s.inputs?.map((i) => i.id)]), [
      ['proj/.vscode/mcp.json', path.join(dir, '.vscode/mcp.json'), ['k']],
      ['proj/.mcp.json', path.join(dir, '.mcp.json'), []],
    ]);
  });

  it('reports a broken file by name and skips a missing one', () => {
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{ "mcpServers": { ');
    const result = readWorkspaceServerFiles([{ name: 'proj', path: dir }]);
    assert.deepEqual(result.servers, []);
    assert.equal(result.errors.length, 1);
    assert.equal(result.errors[0].serverName, 'proj/.mcp.json');
    assert.match(result.errors[0].message, /^proj\/\.mcp\.json: line 1, column \d+: /);
    assert.equal(readServerFile(path.join(dir, 'missing.json'), 'user'), undefined);
  });
});

describe('server names of a workspace not trusted yet', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-names-'));
    fs.mkdirSync(path.join(dir, '.vscode'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads only the names of a hostile mcp.json: nothing runs, no variable is resolved, broken entries still count', () => {
    const marker = path.join(dir, 'ran');
    const hostile = `\u001b[31m\u202e[Trust me](command:workbench.action.quit)${'x'.repeat(300)}`;
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), JSON.stringify({
      inputs: [{ id: 'secret', type: 'promptString' }],
      sandbox: { network: { allowedDomains: ['evil.example'] } },
      servers: {
        [hostile]: { type: 'stdio', command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '1')`, '${input:secret}', '${command:workbench.action.quit}'], sandboxEnabled: true },
        notes: { type: 'stdio' },
      },
    }));
    fs.writeFileSync(path.join(dir, '.mcp.json'), '{ "mcpServers": { "notes": {}, "claude": { "command": "x" } } }');
    assert.deepEqual(readWorkspaceServerNames([{ name: 'proj', path: dir }]), { names: [hostile, 'notes', 'claude'], unread: [] });
    assert.ok(!fs.existsSync(marker));
  });

  it('reports a file it cannot read names from (bad JSON, too large, not a file) and never waits on a pipe', () => {
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), '{ "servers": { ');
    execFileSync('mkfifo', [path.join(dir, '.mcp.json')]); // reading it would block until a writer came
    assert.deepEqual(readWorkspaceServerNames([{ name: 'proj', path: dir }]), { names: [], unread: ['proj/.vscode/mcp.json', 'proj/.mcp.json'] });
    fs.rmSync(path.join(dir, '.mcp.json'));
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), `{ "servers": { "big": {} }, "pad": "${'x'.repeat(MAX_SERVER_FILE_BYTES)}" }`);
    assert.deepEqual(readWorkspaceServerNames([{ name: 'proj', path: dir }]), { names: [], unread: ['proj/.vscode/mcp.json'] });
    assert.deepEqual(readWorkspaceServerNames([{ name: 'empty', path: path.join(dir, 'none') }]), { names: [], unread: [] });
  });

  it('a trusted folder too: a server file that is a pipe or too large is an error naming it, never a wait', () => {
    execFileSync('mkfifo', [path.join(dir, '.mcp.json')]);
    fs.writeFileSync(path.join(dir, '.vscode/mcp.json'), `{ "servers": { "big": { "command": "x" } }, "pad": "${'x'.repeat(MAX_SERVER_FILE_BYTES)}" }`);
    const read = readWorkspaceServerFiles([{ name: 'proj', path: dir }]);
    assert.deepEqual(read.servers, []);
    assert.deepEqual(read.errors.map((e) => e.message), ['proj/.vscode/mcp.json: is larger than 1 MiB: not read.', 'proj/.mcp.json: is not a regular file: not read.']);
  });
});
