'use strict';
// The two-hop floor of case 12: the least a stdio MCP proxy does. Starts the command it is given
// and relays newline-delimited JSON-RPC both ways, each message parsed and written again (a proxy
// must at least read whole messages); no policy, no validation, no SDK.
//   node bench/stdio-relay.cjs <command> [args...]
const { spawn } = require('node:child_process');

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
      to.write(JSON.stringify(JSON.parse(line)) + '\n');
    }
  });
}

relay(process.stdin, child.stdin);
relay(child.stdout, process.stdout);
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
