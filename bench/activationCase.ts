// Case 6 (activation in the real extension host, code loaded at activation, .vsix size) and the
// extension-host half of case 7 (the Tools view for 50 servers x 200 tools). Builds the production
// bundles and the .vsix into a staging folder (dist/ belongs to whoever builds in the checkout),
// starts its own code-server, and runs test/host/activation.test.js in it.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, median, type BenchOptions, type Report } from './harness';

interface CodeServer {
  readonly port: number;
  stop(): Promise<void>;
}
interface E2e {
  prepare(runDir: string, options?: { userSettings?: Record<string, unknown> }): void;
  start(runDir: string, options?: { extraArgs?: string[] }): Promise<CodeServer>;
}
interface HostRun {
  runHostTests(cs: CodeServer, options: { devPath: string; testsPath: string; folder: string; resultsFile: string; shotsDir: string; env: Record<string, string>; log: (m: string) => void }): Promise<{ passes: string[]; failures: { title: string; error: string }[] }>;
}
interface HostMeasures {
  loadMs?: number;
  activateMs?: number;
  extActivateMs?: number;
  bytesAtActivation?: number;
  modulesAtActivation?: string[];
  coreBytes?: number;
  allRunningMs?: number;
  note?: string;
  tree?: { toolRows: number; firstMs: number; medianMs: number };
}

const importEsm = async <T>(file: string): Promise<T> => (await import(pathToFileURL(file).href)) as T;
const kb = (bytes: number) => bytes / 1024;

/** The .vsix and its bundles, built from this checkout into `stage` (production, as shipped). */
function buildStage(stage: string): { vsixBytes: number; extensionBytes: number; coreBytes: number; jsoncBytes: number } {
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', path.join(stage, 'dist')], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'media']) {
    if (fs.existsSync(path.join(ROOT, f))) fs.cpSync(path.join(ROOT, f), path.join(stage, f), { recursive: true });
  }
  const vsce = path.join(ROOT, 'node_modules/@vscode/vsce/vsce');
  const vsix = path.join(stage, 'mcp-tool-host.vsix');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] });
  const size = (f: string) => fs.statSync(path.join(stage, f)).size;
  return { vsixBytes: size('mcp-tool-host.vsix'), extensionBytes: size('dist/extension.js'), coreBytes: size('dist/core.js'), jsoncBytes: size('dist/jsonc.js') };
}

/**
 * Runs the activation test in a code-server of our own, once per session (each page load is a
 * fresh extension host, so each activates once): the first session with the big tree, the
 * others activation only. A reason instead when it cannot run here.
 */
async function measureInHost(stage: string, runDir: string, sessions: number, servers: number, tools: number): Promise<HostMeasures[] | string> {
  if (spawnSync('bash', [path.join(ROOT, 'scripts/e2e/setup.sh')], { stdio: 'ignore' }).status !== 0) return 'code-server could not be set up (scripts/e2e/setup.sh failed)';
  const e2e = await importEsm<E2e>(path.join(ROOT, 'scripts/e2e/codeServer.mjs'));
  const host = await importEsm<HostRun>(path.join(ROOT, 'scripts/e2e/hostTests.mjs'));
  e2e.prepare(runDir);
  const cs = await e2e.start(runDir, { extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
  const measured: HostMeasures[] = [];
  try {
    const folder = path.join(runDir, 'ws');
    fs.mkdirSync(folder, { recursive: true });
    for (let session = 0; session < sessions; session++) {
      const out = path.join(runDir, `host-bench-${session}.json`);
      const result = await host.runHostTests(cs, {
        devPath: stage,
        testsPath: path.join(ROOT, 'out/test/host/index.js'),
        folder,
        resultsFile: path.join(runDir, `host-tests-${session}.json`),
        shotsDir: runDir,
        env: { HOST_TEST_FILES: 'activation.test.js', BENCH_TREE_SERVERS: String(session === 0 ? servers : 0), BENCH_TREE_TOOLS: String(tools), HOST_BENCH_OUT: out },
        log: () => undefined,
      });
      if (result.failures.length > 0) return `the host test failed: ${result.failures.map((f) => `${f.title}: ${f.error}`).join('; ')}`;
      measured.push(JSON.parse(fs.readFileSync(out, 'utf8')) as HostMeasures);
    }
    return measured;
  } finally {
    await cs.stop();
  }
}

export async function activation(o: BenchOptions, report: Report): Promise<void> {
  if (o.smoke) {
    // npm test runs the host test itself (test/host/activation.test.ts); here, the bundles as built.
    const size = (f: string) => (fs.existsSync(path.join(ROOT, 'dist', f)) ? fs.statSync(path.join(ROOT, 'dist', f)).size : NaN);
    report.add({ case: '6. dist/extension.js (dev build)', ours: kb(size('extension.js')), unit: 'KB' });
    report.add({ case: '6. dist/core.js (dev build)', ours: kb(size('core.js')), unit: 'KB' });
    report.add({ case: '6. dist/jsonc.js (dev build)', ours: kb(size('jsonc.js')), unit: 'KB' });
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-'));
  const stage = path.join(work, 'extension');
  const built = buildStage(stage);
  const sessions = await measureInHost(stage, path.join(work, 'code-server'), 5, 50, 200);
  report.add({ case: '6. .vsix size', ours: kb(built.vsixBytes), unit: 'KB', note: `production bundles: dist/extension.js ${kb(built.extensionBytes).toFixed(0)} KB, dist/core.js ${kb(built.coreBytes).toFixed(0)} KB, dist/jsonc.js ${kb(built.jsoncBytes).toFixed(0)} KB` });
  if (typeof sessions === 'string') {
    report.add({ case: '6. activation in the extension host', ours: NaN, unit: 'ms', goal: '<= 20 ms', note: `not measured: ${sessions}; logs in ${work}` });
    return;
  }
  const measured = sessions[0];
  const activate = sessions.map((m) => m.activateMs ?? NaN);
  const load = sessions.map((m) => m.loadMs ?? NaN);
  const whole = sessions.map((m) => m.extActivateMs ?? NaN);
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  report.add({ case: '6. activate() in the real extension host (code-server)', ours: median(activate), unit: 'ms', goal: '<= 20 ms', ok: median(activate) <= 20, note: `median of ${sessions.length} fresh extension hosts: ${ms(activate)} ms; loading dist/extension.js took ${ms(load)} ms; ext.activate() as a whole, VS Code's storage and IPC included, ${ms(whole)} ms` });
  const bytes = measured.bytesAtActivation ?? NaN;
  report.add({ case: '6. JS loaded at activation', ours: kb(bytes), unit: 'KB', goal: '<= 150 KB', ok: bytes <= 150 * 1024, note: `${(measured.modulesAtActivation ?? []).join(', ')}; dist/core.js (${kb(measured.coreBytes ?? NaN).toFixed(0)} KB: SDK, zod, ajv) loads with the first server, dist/jsonc.js with the first mcp.json` });
  if (measured.tree) {
    report.add({ case: '7. Tools view: getChildren + getTreeItem for 50 servers x 200 tools (extension host)', ours: measured.tree.medianMs, unit: 'ms', goal: '<= 50 ms', ok: measured.tree.medianMs <= 50, note: `${measured.tree.toolRows} tool rows; first (cold) pass ${measured.tree.firstMs.toFixed(1)} ms; all 50 servers running in ${((measured.allRunningMs ?? NaN) / 1000).toFixed(1)} s` });
  }
  fs.rmSync(work, { recursive: true, force: true });
}
