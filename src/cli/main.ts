import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline/promises';
import { CallPipeline, summarize } from '../core/calls/callPipeline';
import type { Approver, CallSink } from '../core/calls/ports';
import { resolveLaunch } from '../core/config/launch';
import { parseServers } from '../core/config/serverConfig';
import { ServerPool } from '../core/connection/serverPool';
import { badgeWords, displayName, effectiveAnnotations } from '../core/tools/annotations';
import { SchemaValidator } from '../core/tools/schemaValidator';
import { sanitizeLine } from '../core/render/sanitize';

const USAGE = `usage: mcp-tool-host <command> --config FILE [options]

commands:
  servers                      list the configured servers and their state
  tools [SERVER]               list the tools of every (or one) server
  call SERVER TOOL --args JSON call a tool (asks y/N when approval is needed)

options:
  --config FILE   servers as {"servers": {...}}, VS Code's mcp.json, or Claude's {"mcpServers": {...}}
  --yes           approve calls that need approval
  --json          machine-readable output

exit codes: 0 ok, 1 the tool returned isError, 2 usage or config error,
            3 approval required or denied, 4 connection or protocol error`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--yes' || a === '--json' || a === '--help' || a === '-h') flags.set(a, true);
    else if (a.startsWith('--')) flags.set(a, argv[++i] ?? '');
    else positional.push(a);
  }
  const [command, ...rest] = positional;
  if (flags.has('--help') || flags.has('-h') || !command) {
    console.log(USAGE);
    return command || flags.has('--help') || flags.has('-h') ? 0 : 2;
  }
  const configFile = flags.get('--config');
  if (typeof configFile !== 'string' || !configFile) throw new UsageError('--config FILE is required.');
  const raw = JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  const parsed = parseServers(raw.servers ?? raw.mcpServers ?? raw['mcpToolHost.servers'], 'user');
  for (const e of parsed.errors) console.error(`config: ${e.message}`);
  if (parsed.servers.length === 0) throw new UsageError(`No usable server in ${configFile}.`);

  const json = flags.has('--json');
  const validator = new SchemaValidator();
  const cwd = process.cwd();
  const pool = new ServerPool(() => ({
    validator,
    clientVersion: '0.1.0',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined },
    resolveLaunch: async (def) => resolveLaunch(def, { workspaceFolders: [{ name: path.basename(cwd), path: cwd }], env: process.env }),
  }));
  try {
    const wanted = command === 'call' || command === 'tools' ? rest[0] : undefined;
    pool.apply({ servers: parsed.servers.filter((s) => !wanted || s.name === wanted), errors: [] }, { autoStart: false });
    if (wanted && !pool.get(wanted)) throw new UsageError(`No server named "${wanted}" in ${configFile}.`);
    await Promise.all(pool.connections.map((c) => c.start()));
    switch (command) {
      case 'servers':
      case 'tools': {
        const rows = pool.connections.map((c) => ({
          server: c.name,
          state: c.state.kind === 'error' ? `error: ${c.state.message}` : c.state.kind,
          tools: c.tools.map((t) => ({ name: t.name, title: displayName(t), badges: badgeWords(effectiveAnnotations(t, c.definition.trustAnnotations)) })),
        }));
        if (json) console.log(JSON.stringify(rows, null, 2));
        else for (const r of rows) {
          console.log(`${r.server}: ${r.state}${command === 'servers' ? `, ${r.tools.length} tools` : ''}`);
          if (command === 'tools') for (const t of r.tools) console.log(`  ${sanitizeLine(t.name)}  [${t.badges.join(', ')}]`);
        }
        return pool.connections.some((c) => c.state.kind === 'error') ? 4 : 0;
      }
      case 'call':
        return await call(pool, validator, rest, flags);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } finally {
    await pool.stopAll();
    pool.dispose();
  }
}

async function call(pool: ServerPool, validator: SchemaValidator, rest: string[], flags: Map<string, string | true>): Promise<number> {
  const [server, tool] = rest;
  if (!server || !tool) throw new UsageError('call needs SERVER and TOOL.');
  const connection = pool.get(server);
  if (connection?.state.kind !== 'running') {
    console.error(`Server "${server}" did not start: ${connection?.state.kind === 'error' ? connection.state.message : 'unknown'}`);
    return 4;
  }
  const argsText = flags.get('--args');
  const args: unknown = typeof argsText === 'string' ? JSON.parse(argsText) : {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError('--args must be a JSON object.');
  const approver: Approver = {
    async approve(req) {
      if (flags.has('--yes')) return 'allow-once';
      if (!process.stdin.isTTY) return 'deny';
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await rl.question(`${req.server}/${req.tool.name} ${req.reasons.join(' and ')}.${os.EOL}Arguments: ${JSON.stringify(req.args)}${os.EOL}Allow this call? [y/N] `);
        return /^y(es)?$/i.test(answer.trim()) ? 'allow-once' : 'deny';
      } finally {
        rl.close();
      }
    },
  };
  const quiet: CallSink = { begin: () => undefined, line: () => undefined, end: () => undefined, progress: (_id, p) => console.error(`progress ${p.progress}${p.total ? `/${p.total}` : ''} ${p.message ?? ''}`) };
  const outcome = await new CallPipeline(pool, validator, approver, quiet).call({ server, tool, args: args as Record<string, unknown>, origin: 'cli' });
  if (flags.has('--json')) console.log(JSON.stringify(outcome, null, 2));
  else console.log(outcome.kind === 'ok' ? outcome.result.text : summarize(outcome));
  switch (outcome.kind) {
    case 'ok': return 0;
    case 'tool-error': return 1;
    case 'invalid-arguments': return 2;
    case 'denied': return 3;
    case 'cancelled':
    case 'failed': return 4;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : `error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(err instanceof UsageError || err instanceof SyntaxError ? 2 : 4);
  },
);
