// Cases 7 (memory, and the core part of the tree) and 8 (soak). Memory is measured in a fresh
// Node with --expose-gc (bench/memoryProbe.ts), so nothing else in this run moves the heap.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { displayName, effectiveAnnotations } from '../src/core/tools/annotations';
import { badgeDescription } from '../src/core/tools/toolBadges';
import { sanitizeLine, sanitizeText } from '../src/core/render/sanitize';
import { median, time, type BenchOptions, type Report } from './harness';

function probe<T>(mode: 'idle' | 'soak', n: number): T {
  const out = execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'memoryProbe.js'), mode, String(n)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

/** The tools of the many-tools fixture, built in-process. */
function syntheticTools(n: number): Tool[] {
  const kinds = [{ readOnlyHint: true, openWorldHint: false }, { destructiveHint: true, idempotentHint: true }, { readOnlyHint: true }, {}, { destructiveHint: false, openWorldHint: false, title: 'Annotated title' }];
  return Array.from({ length: n }, (_, i) => ({
    name: `tool_${i}`,
    ...(i % 3 === 0 ? { title: `Tool number ${i}` } : {}),
    description: `Synthetic tool ${i}: does one thing with its "text" argument.`,
    inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: kinds[i % kinds.length],
  }));
}

export async function treeCore(o: BenchOptions, report: Report): Promise<void> {
  const servers = o.smoke ? 2 : 50;
  const perServer = o.smoke ? 10 : 200;
  const lists = Array.from({ length: servers }, () => syntheticTools(perServer));
  const times: number[] = [];
  let items = 0;
  for (let r = 0; r < (o.smoke ? 1 : 9); r++) {
    items = 0;
    times.push(await time(async () => {
      for (const [s, tools] of lists.entries()) {
        for (const tool of tools) {
          const a = effectiveAnnotations(tool, s % 2 === 0);
          const label = sanitizeLine(displayName(tool));
          const description = badgeDescription(a); // what the tree row shows
          const tooltip = sanitizeText(tool.description ?? '');
          items += label.length > 0 && description.length >= 0 && tooltip.length > 0 ? 1 : 0;
        }
      }
    }));
  }
  report.add({ case: `7. tree, core part: annotations, badges, labels for ${servers} x ${perServer} tools (plain Node)`, ours: median(times), unit: 'ms', goal: '<= 50 ms', ok: median(times) <= 50, note: `${items} items` });
}

export function idleMemory(o: BenchOptions, report: Report): void {
  const n = o.smoke ? 2 : 20;
  const r = probe<{ connections: number; tools: number; perConnection: { heap: number; external: number; rss: number } }>('idle', n);
  const mb = (r.perConnection.heap + r.perConnection.external) / 2 ** 20;
  report.add({ case: '7. host memory per idle connection (200 tools listed)', ours: mb, unit: 'MB', goal: '<= 2 MB', ok: mb <= 2, note: `JS heap + external after GC, ${r.connections} connections; RSS ${(r.perConnection.rss / 2 ** 20).toFixed(2)} MB each` });
}

export function soak(o: BenchOptions, report: Report): void {
  const n = o.smoke ? 500 : 100_000;
  const r = probe<{ calls: number; failures: number; seconds: number; heapGrowth: number; before: Record<string, unknown>; after: Record<string, unknown> }>('soak', n);
  const grown = Object.keys(r.before).filter((k) => r.before[k] !== r.after[k]).map((k) => `${k} ${String(r.before[k])} -> ${String(r.after[k])}`);
  const mb = r.heapGrowth / 2 ** 20;
  report.add({ case: `8. soak: heap growth after ${n.toLocaleString('en')} calls through CallPipeline`, ours: mb, unit: 'MB', goal: '<= 5 MB', ok: mb <= 5 && r.failures === 0, note: `after GC; ${r.failures} failed; ${Math.round(r.calls / r.seconds).toLocaleString('en')} calls/s, 16 in flight` });
  report.add({ case: '8. soak: listeners, pending requests, timers, handles that grew', ours: grown.length, unit: '', goal: '0', ok: grown.length === 0, note: grown.length ? grown.join('; ') : `none of ${Object.keys(r.before).length} counters changed` });
}
