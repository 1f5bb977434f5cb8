// Case 14: the CLI run cold, once per call, as scripts and agents run it (issue 40). The whole
// process, from spawn to exit, of `mcp-tool-host call ev get-sum` and `mcp-tool-host tools ev`
// against server-everything, beside a raw client that spawns the same server, initializes, makes
// the one request and exits (bench/raw-cold-client.cjs), and the MCP Inspector's CLI when it is in
// the per-user cache; rounds interleaved. `--help` beside a bare `node -e 0` says what starting costs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, median, type BenchOptions, type Report } from './harness';

const CLI = path.join(ROOT, 'dist/cli.js');
const RAW = path.join(ROOT, 'bench/raw-cold-client.cjs');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** The Inspector's version this case was written against: `npm install --prefix <cache>/inspector-<version> @modelcontextprotocol/inspector@<version>`. */
export const INSPECTOR_VERSION = '2.12.0';
const INSPECTOR = process.env.BENCH_INSPECTOR ?? path.join(os.homedir(), '.cache/mcp-tool-host', `inspector-${INSPECTOR_VERSION}`, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const GOAL = { max: 1.5 };
/** Preloaded to say when the server was spawned, counted from the process's start (bench/spawnMark.cjs). Quoted in NODE_OPTIONS: a checkout's path may hold a space. */
const SPAWN_MARK = path.join(ROOT, 'bench/spawnMark.cjs');

/** One command line to time, and the text its output must hold (a run that failed is not a fast run). */
interface Runner {
  readonly args: readonly string[];
  readonly expect: string;
}

/** Runs `node ...args` to its exit (stdout and stderr closed), in ms; throws when it failed. */
function wholeProcess(runner: Runner, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...runner.args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0 || !out.includes(runner.expect)) reject(new Error(`${runner.args.slice(0, 3).join(' ')} failed (exit ${code}): ${out.slice(0, 300)}`));
      else resolve(ms);
    });
  });
}

/** Times each runner once a round, in turn, for `rounds` rounds after `warmup` rounds not counted. */
async function interleaved(runners: Record<string, Runner>, rounds: number, warmup: number, env: NodeJS.ProcessEnv): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
  for (let round = -warmup; round < rounds; round++) {
    for (const [name, runner] of Object.entries(runners)) {
      const ms = await wholeProcess(runner, env);
      if (round >= 0) times[name].push(ms);
    }
  }
  return times;
}

/** The median of the round-by-round ratios ours/raw (rounds interleaved: each pair ran side by side in time), with their range. */
function paired(ours: readonly number[], raw: readonly number[]): string {
  const ratios = ours.map((o, i) => o / raw[i]).sort((a, b) => a - b);
  return `paired ${median(ratios).toFixed(2)}x (${ratios[0].toFixed(2)}-${ratios.at(-1)!.toFixed(2)})`;
}

/** Runs each runner `rounds` times in turn with the spawn mark preloaded: ms from its start to its first spawn (the server's). */
async function spawnTimes(runners: Record<string, Runner>, rounds: number, env: NodeJS.ProcessEnv, dir: string): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, runner] of Object.entries(runners)) {
      const mark = path.join(dir, `spawn-${name}-${round}`);
      await wholeProcess(runner, { ...env, SPAWN_MARK: mark, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(SPAWN_MARK)}`.trim() });
      times[name].push(Number(fs.readFileSync(mark, 'utf8').split('\n')[0]));
    }
  }
  return times;
}

export async function coldCliCase(o: BenchOptions, report: Report): Promise<void> {
  // The numbers are the build's: say which (the vsix's is `node esbuild.mjs --production`, 5.6 MB of commands; a development build's is 9.9 MB).
  const launchBundle = path.join(path.dirname(CLI), 'cli-launch.js');
  if (!fs.existsSync(launchBundle)) throw new Error(`case 14: ${launchBundle} is missing: dist/ is older than the source (node esbuild.mjs --production).`);
  const build = `dist/cli-commands.js ${(fs.statSync(path.join(path.dirname(CLI), 'cli-commands.js')).size / 1e6).toFixed(1)} MB, dist/cli-launch.js ${(fs.statSync(launchBundle).size / 1e3).toFixed(0)} KB`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-bench-cold-'));
  try {
    const config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
    // The CLI's state (audit log, remembered eras) in the bench's folder, not the user's.
    const env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state') };
    const server = [process.execPath, EVERYTHING, 'stdio'];
    const sum = 'The sum of 1 and 2 is 3.';
    const runners: Record<string, Runner> = {
      oursCall: { args: [CLI, '--config', config, 'call', 'ev', 'get-sum', '--args', '{"a":1,"b":2}'], expect: sum },
      rawCall: { args: [RAW, 'call', 'get-sum', '{"a":1,"b":2}', '--', ...server], expect: sum },
      oursTools: { args: [CLI, '--config', config, 'tools', 'ev'], expect: 'get-sum' },
      rawTools: { args: [RAW, 'tools', '--', ...server], expect: 'get-sum' },
      oursHelp: { args: [CLI, '--help'], expect: 'usage:' },
      bareNode: { args: ['-e', 'console.log("usage:")'], expect: 'usage:' },
    };
    // A smoke run checks that every command works, once, without the peer (seconds a run here).
    const inspector = !o.smoke && fs.existsSync(INSPECTOR);
    if (inspector) {
      runners.inspectorCall = { args: [INSPECTOR, '--cli', ...server, '--method', 'tools/call', '--tool-name', 'get-sum', '--tool-arg', 'a=1', '--tool-arg', 'b=2'], expect: sum };
      runners.inspectorTools = { args: [INSPECTOR, '--cli', ...server, '--method', 'tools/list'], expect: 'get-sum' };
    } else if (!o.smoke) {
      console.log(`case 14: the MCP Inspector's CLI column is skipped: ${INSPECTOR} is absent (npm install --prefix ~/.cache/mcp-tool-host/inspector-${INSPECTOR_VERSION} @modelcontextprotocol/inspector@${INSPECTOR_VERSION}, or BENCH_INSPECTOR=path).`);
    }
    const t = await interleaved(runners, o.smoke ? 1 : 8, o.smoke ? 0 : 1, env);
    const load = `load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}; ${build}`;
    report.ratio('14 cold `call ev get-sum`, whole process (ms)', t.oursCall, t.rawCall, 'ms', o.smoke ? undefined : GOAL, `${paired(t.oursCall, t.rawCall)}; ${load}`);
    report.ratio('14 cold `tools ev`, whole process (ms)', t.oursTools, t.rawTools, 'ms', o.smoke ? undefined : GOAL, paired(t.oursTools, t.rawTools));
    // Where the time goes: how long after its own start each spawned the server (the CLI first runs its checks).
    const s = await spawnTimes({ oursCall: runners.oursCall, rawCall: runners.rawCall }, o.smoke ? 1 : 5, env, dir);
    report.ratio('14 (where it goes) `call`: from the process start to the server\'s spawn (ms)', s.oursCall, s.rawCall, 'ms', undefined, 'NODE_OPTIONS=--require bench/spawnMark.cjs, rounds not timed above');
    report.ratio('14 `--help`, whole process, vs bare node (ms)', t.oursHelp, t.bareNode, 'ms', undefined);
    if (inspector) {
      report.ratio(`14 Inspector CLI ${INSPECTOR_VERSION} \`tools/call\` vs raw (ms, where a peer stands)`, t.inspectorCall, t.rawCall, 'ms', undefined, `ours/Inspector ${(median(t.oursCall) / median(t.inspectorCall)).toFixed(2)}x`);
      report.ratio(`14 Inspector CLI ${INSPECTOR_VERSION} \`tools/list\` vs raw (ms, where a peer stands)`, t.inspectorTools, t.rawTools, 'ms', undefined, `ours/Inspector ${(median(t.oursTools) / median(t.inspectorTools)).toFixed(2)}x`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
