'use strict';
// The two-hop floor of case 12: the least a stdio MCP proxy does. Starts the command it is given
// and relays newline-delimited JSON-RPC both ways, each message parsed and written again (a proxy
// must at least read whole messages); no policy, no validation, no SDK.
//   node bench/stdio-relay.cjs <command> [args...]
// With RELAY_BURN_US=N in its environment it also spins N µs of CPU for each tools/call it passes on:
// a middle process's own work a call, without the work, so case 12 can measure what each µs of it costs
// the throughput on this machine.
const { spawn } = require('node:child_process');

const BURN_NS = BigInt(Math.round(Number(process.env.RELAY_BURN_US || 0) * 1000));

const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'] });

/** Lines of `from` parsed and written to `to`; the writes of one turn go out in one system call. */
function relay(from, to) {
  let rest = '';
  let corked = false;
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (line.trim() === '') continue;
      if (!corked) {
        corked = true;
        to.cork();
        process.nextTick(() => ((corked = false), to.uncork()));
      }
      const message = JSON.parse(line);
      if (BURN_NS > 0n && message.method === 'tools/call') burn();
      to.write(JSON.stringify(message) + '\n');
    }
  });
}

/** BURN_NS of the thread's time, busy: what a middle process's own work takes of a core. */
function burn() {
  const end = process.hrtime.bigint() + BURN_NS;
  while (process.hrtime.bigint() < end);
}

relay(process.stdin, child.stdin);
relay(child.stdout, process.stdout);
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
