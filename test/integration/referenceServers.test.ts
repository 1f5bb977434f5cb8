import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApprovalDecision, AuditRecord } from '../../src/core/calls/ports';
import { newResourceOffers } from '../../src/core/offers/later';
import { makeHost, node, ROOT, until, type HostOptions } from './helpers';

const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const MEMORY = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

const tempDir = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));

/** How long these tests wait for a fixture's side effect (well under the test's own timeout). */
const WAIT_MS = 3000;

describe('npm reference servers through the real core (real child processes)', function () {
  this.timeout(10_000);
  const hosts: ReturnType<typeof makeHost>[] = [];
  const dirs: string[] = [];
  const host = (name: string, def: Record<string, unknown>, answer: ApprovalDecision = 'deny', options: HostOptions = {}) => {
    const h = makeHost({ [name]: def }, answer, options);
    hosts.push(h);
    return { ...h, connection: h.pool.get(name)! };
  };
  const dir = (prefix: string) => {
    const d = tempDir(prefix);
    dirs.push(d);
    return d;
  };
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  describe('@modelcontextprotocol/server-filesystem', () => {
    const fsHost = (allowed: string, answer: ApprovalDecision = 'deny', options: HostOptions = {}) => host('fs', node(FILESYSTEM, { args: [FILESYSTEM, allowed] }), answer, options);

    it('lists its tools with the annotations it declares', async () => {
      const h = fsHost(dir('mcp-fs-'));
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      const names = h.connection.tools.map((t) => t.name);
      for (const expected of ['list_directory', 'read_text_file', 'write_file', 'list_allowed_directories']) assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
      const write = h.connection.tools.find((t) => t.name === 'write_file')!;
      assert.equal(write.annotations?.destructiveHint, true);
      assert.equal(h.connection.tools.find((t) => t.name === 'read_text_file')!.annotations?.readOnlyHint, true);
    });

    it('lists the directory and reads a file without asking; a path outside is a tool error', async () => {
      const root = dir('mcp-fs-');
      fs.writeFileSync(path.join(root, 'hello.txt'), 'hello from the test\nsecond line\n');
      fs.mkdirSync(path.join(root, 'sub'));
      const h = fsHost(root);
      await h.connection.start();
      const listing = await h.pipeline.call({ server: 'fs', tool: 'list_directory', args: { path: root }, origin: 'api' });
      assert.equal(listing.kind, 'ok', JSON.stringify(listing));
      if (listing.kind === 'ok') {
        assert.ok(listing.result.text.startsWith('[FILE] hello.txt\n[DIR] sub') || listing.result.text.startsWith('[DIR] sub\n[FILE] hello.txt'), listing.result.text);
      }
      const read = await h.pipeline.call({ server: 'fs', tool: 'read_text_file', args: { path: path.join(root, 'hello.txt') }, origin: 'api' });
      assert.equal(read.kind, 'ok', JSON.stringify(read));
      if (read.kind === 'ok') assert.ok(read.result.text.startsWith('hello from the test\nsecond line\n'), read.result.text);
      assert.equal(h.approvals.length, 0, 'read-only, closed-world tools of a user-defined server need no approval');
      const outside = await h.pipeline.call({ server: 'fs', tool: 'read_text_file', args: { path: '/etc/hostname' }, origin: 'api' });
      assert.equal(outside.kind, 'tool-error', JSON.stringify(outside));
      if (outside.kind === 'tool-error') assert.match(outside.result.text, /Access denied|outside allowed directories/i);
    });

    it('write_file asks first: denied, nothing is written; allowed, the file appears', async () => {
      const root = dir('mcp-fs-');
      const target = path.join(root, 'written.txt');
      const denying = fsHost(root, 'deny');
      await denying.connection.start();
      const denied = await denying.pipeline.call({ server: 'fs', tool: 'write_file', args: { path: target, content: 'should not exist' }, origin: 'api' });
      assert.equal(denied.kind, 'denied');
      assert.equal(denying.approvals.length, 1);
      assert.equal(denying.approvals[0].tool.name, 'write_file');
      assert.deepEqual(denying.approvals[0].args, { path: target, content: 'should not exist' });
      assert.ok(denying.approvals[0].reasons.some((r) => /destructive/.test(r)), JSON.stringify(denying.approvals[0].reasons));
      assert.equal(fs.existsSync(target), false, 'a denied call sends nothing');

      const allowing = host('fs2', node(FILESYSTEM, { args: [FILESYSTEM, root] }), 'allow-once');
      await allowing.connection.start();
      const written = await allowing.pipeline.call({ server: 'fs2', tool: 'write_file', args: { path: target, content: 'approved content' }, origin: 'api' });
      assert.equal(written.kind, 'ok', JSON.stringify(written));
      assert.equal(fs.readFileSync(target, 'utf8'), 'approved content');
    });

    it("adopts the host's roots (roots/list) instead of its command-line directory", async () => {
      const fromArgs = dir('mcp-fs-args-');
      const fromRoots = dir('mcp-fs-roots-');
      const h = fsHost(fromArgs, 'deny', { roots: () => [{ uri: pathToFileURL(fromRoots).href, name: 'workspace' }] });
      await h.connection.start();
      await until('the server to take the roots', () => h.logs.some((l) => l.includes('Updated allowed directories from MCP roots: 1 valid directories')), WAIT_MS);
      const allowed = await h.pipeline.call({ server: 'fs', tool: 'list_allowed_directories', args: {}, origin: 'api' });
      assert.equal(allowed.kind, 'ok', JSON.stringify(allowed));
      if (allowed.kind === 'ok') {
        assert.ok(allowed.result.text.startsWith(`Allowed directories:\n${fromRoots}`), allowed.result.text);
        assert.ok(!allowed.result.text.includes(fromArgs), allowed.result.text);
      }
    });
  });

  describe('@modelcontextprotocol/server-memory', () => {
    it('its knowledge graph is a resource: listed, read (audited) and watched, an update arriving after create_entities changes it', async () => {
      const memoryFile = path.join(dir('mcp-memory-'), 'memory.jsonl');
      const audit: AuditRecord[] = [];
      const h = host('memory', node(MEMORY, { env: { MEMORY_FILE_PATH: memoryFile } }), 'deny', { audit: { append: (r) => void audit.push(r) } });
      await h.connection.start();
      const offers = newResourceOffers({ pool: h.pool, pipeline: h.pipeline, audit: { append: (r) => void audit.push(r) } });
      try {
        const listed = await offers.resources('memory');
        const graph = listed.items.find((r) => r.uri === 'memory://knowledge-graph');
        assert.ok(graph, JSON.stringify(listed));
        assert.equal(graph.mimeType, 'application/json');
        const before = await offers.read({ server: 'memory', uri: graph.uri, origin: 'tree' });
        assert.ok(before.kind === 'ok' && before.parts[0].kind === 'text', JSON.stringify(before));
        assert.deepEqual(JSON.parse(before.parts[0].kind === 'text' ? before.parts[0].text : ''), { entities: [], relations: [] });
        assert.ok(audit.some((r) => r.tool === 'resources/read' && r.origin === 'tree' && r.outcome === 'ok'));
        let updates = 0;
        const watch = offers.subscribe('memory', graph.uri, () => updates++);
        // resources/subscribe is sent as the watch starts; the mutation must come after the server has it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const created = await h.pipeline.call({ server: 'memory', tool: 'create_entities', args: { entities: [{ name: 'Ada', entityType: 'person', observations: [] }] }, origin: 'api' });
        assert.equal(created.kind, 'ok', JSON.stringify(created));
        await until('the server says the graph changed', () => updates > 0, 10_000);
        const after = await offers.read({ server: 'memory', uri: graph.uri, origin: 'tree' });
        assert.ok(after.kind === 'ok' && after.parts[0].kind === 'text' && after.parts[0].text.includes('"Ada"'));
        watch.dispose();
      } finally {
        offers.dispose();
      }
    });

    it('create_entities then read_graph round-trips, persisted in MEMORY_FILE_PATH across a restart', async () => {
      const memoryFile = path.join(dir('mcp-memory-'), 'memory.jsonl');
      const h = host('memory', node(MEMORY, { env: { MEMORY_FILE_PATH: memoryFile } }));
      await h.connection.start();
      assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
      const entity = { name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first published program'] };
      const created = await h.pipeline.call({ server: 'memory', tool: 'create_entities', args: { entities: [entity] }, origin: 'api' });
      assert.equal(created.kind, 'ok', JSON.stringify(created));
      assert.equal(h.approvals.length, 0, 'create_entities declares itself non-destructive and closed-world');

      const graphText = async () => {
        const graph = await h.pipeline.call({ server: 'memory', tool: 'read_graph', args: {}, origin: 'api' });
        assert.equal(graph.kind, 'ok', JSON.stringify(graph));
        return graph.kind === 'ok' ? graph.result.text : '';
      };
      const first = await graphText();
      // the text block is the graph as JSON; structuredContent follows it
      const graph = JSON.parse(first.split('\nstructuredContent:\n')[0]) as { entities: unknown[]; relations: unknown[] };
      assert.deepEqual(graph, { entities: [entity], relations: [] });

      const line = JSON.parse(fs.readFileSync(memoryFile, 'utf8').trim()) as Record<string, unknown>;
      assert.deepEqual(line, { type: 'entity', ...entity });

      await h.connection.restart();
      assert.equal(h.connection.state.kind, 'running');
      assert.equal(await graphText(), first, 'the graph survives a restart (it lives in MEMORY_FILE_PATH)');
    });
  });
});
