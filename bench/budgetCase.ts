// Case 13: result budgets. Tokens one model request carries for a tool result, with the budget
// (mcpToolHost.chat.resultTokens' default) and without any cut, for three real npm servers with
// large results: server-everything (get-env in a large environment; get-tiny-image for the image
// cost), server-filesystem (read_text_file of a 5 MiB log; directory_tree of a package folder),
// server-memory (read_graph of 3,000 entities). Counted with o200k_base, in bounded time (boundedCount).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CallPipeline, type CallOutcome } from '../src/core/calls/callPipeline';
import type { CallSink } from '../src/core/calls/ports';
import { toolResultText } from '../src/core/chat/callReport';
import { budgetedResultText } from '../src/core/chat/modelResult';
import { boundedCount, DEFAULT_RESULT_TOKENS } from '../src/core/chat/resultBudget';
import { ResultStore } from '../src/core/chat/resultStore';
import { parseServers } from '../src/core/config/serverConfig';
import { ServerPool } from '../src/core/connection/serverPool';
import { loadSearch } from '../src/core/search/load';
import { SchemaValidator } from '../src/core/tools/schemaValidator';
import { ROOT, quietLog, type BenchOptions, type Report } from './harness';

const sink: CallSink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };
const serverJs = (name: string) => path.join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');

export async function budgetCase(o: BenchOptions, report: Report): Promise<void> {
  const scale = o.smoke ? 0.01 : 1;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-budget-'));
  const log = path.join(dir, 'app.log');
  const lines = Math.max(100, Math.round(60_000 * scale));
  fs.writeFileSync(log, Array.from({ length: lines }, (_, i) => `2026-11-26T10:${String(i % 60).padStart(2, '0')}:00Z INFO worker-${i % 8} handled request ${i} in ${i % 97} ms`).join('\n'));
  // A CI runner's environment: a few hundred variables, some long (paths, tokens' names, JSON settings).
  const bigEnv: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (let i = 0; i < Math.max(10, Math.round(400 * scale)); i++) bigEnv[`CI_SETTING_${i}`] = `value-${i}-`.repeat(30);
  const memoryFile = path.join(dir, 'memory.jsonl');
  const validator = new SchemaValidator();
  const launches: Record<string, { args: string[]; env: Record<string, string> }> = {
    everything: { args: [serverJs('server-everything'), 'stdio'], env: bigEnv },
    filesystem: { args: [serverJs('server-filesystem'), dir, path.join(ROOT, 'node_modules/@modelcontextprotocol')], env: process.env as Record<string, string> },
    memory: { args: [serverJs('server-memory')], env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: memoryFile } },
  };
  const pool = new ServerPool(() => ({
    log: quietLog, validator, clientVersion: 'bench', maxMessageBytes: 256 * 1024 * 1024,
    resolveLaunch: async (def) => ({ type: 'stdio', launch: { command: process.execPath, args: launches[def.name].args, env: launches[def.name].env } }),
  }));
  pool.apply(parseServers(Object.fromEntries(Object.entries(launches).map(([name, l]) => [name, { command: process.execPath, args: l.args }])), 'user'), { autoStart: false });
  const pipeline = new CallPipeline(pool, validator, { approve: async () => 'allow-once' }, sink);
  const count = (text: string) => boundedCount(text, loadSearch().textTokens);
  const store = new ResultStore();
  try {
    for (const name of Object.keys(launches)) await pool.get(name)!.start();
    count('warm the tokenizer: its load is once a window, not per result');
    const entities = Math.max(20, Math.round(3_000 * scale));
    const created = await pipeline.call({ server: 'memory', tool: 'create_entities', origin: 'api', args: { entities: Array.from({ length: entities }, (_, i) => ({ name: `service-${i}`, entityType: 'service', observations: [`owned by team ${i % 40}`, `runs on cluster ${i % 7}`, `p99 latency ${i % 300} ms`] })) } });
    if (created.kind !== 'ok') throw new Error(`create_entities: ${created.kind}`);
    const cases: [string, string, string, Record<string, unknown>][] = [
      ['server-everything get-env (large environment)', 'everything', 'get-env', {}],
      ['server-everything get-tiny-image (image + text)', 'everything', 'get-tiny-image', {}],
      [`server-filesystem read_text_file (${(fs.statSync(log).size / 1024 / 1024).toFixed(1)} MiB log)`, 'filesystem', 'read_text_file', { path: log }],
      ['server-filesystem directory_tree (@modelcontextprotocol packages)', 'filesystem', 'directory_tree', { path: path.join(ROOT, 'node_modules/@modelcontextprotocol') }],
      [`server-memory read_graph (${entities} entities)`, 'memory', 'read_graph', {}],
    ];
    for (const [label, server, tool, args] of cases) {
      const outcome: CallOutcome = await pipeline.call({ server, tool, args, origin: 'api' });
      if (outcome.kind !== 'ok') throw new Error(`${label}: ${outcome.kind} ${'message' in outcome ? outcome.message : ''}`);
      const started = performance.now();
      const on = budgetedResultText(outcome, { budget: DEFAULT_RESULT_TOKENS, count, keep: (p) => store.put(p, { server, tool }), readTool: 'read_result' });
      const fitMs = performance.now() - started;
      const onTokens = count(on.text) + on.fit!.mediaTokens;
      const off = on.fit!.totalTokens;
      const before = count(toolResultText(outcome));
      report.add({
        case: `budgets: tokens a request carries for ${label}, budget ${DEFAULT_RESULT_TOKENS} vs no budget`,
        ours: onTokens, raw: off, ratio: onTokens / off, unit: 'tokens', goal: `<= ${DEFAULT_RESULT_TOKENS}`, ok: onTokens <= DEFAULT_RESULT_TOKENS,
        note: `${on.fit!.cut ? `cut, handle kept (${on.fit!.text.totalChars} characters${on.fit!.text.exact ? '' : ', total tokens estimated'})` : 'within the budget: whole'}${on.fit!.media ? `, ${on.fit!.media} image at 1600` : ''}; fitted in ${fitMs.toFixed(1)} ms; the old 60,000-character cut: ${before} tokens`,
      });
    }
  } finally {
    await Promise.all(pool.connections.map((c) => c.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
