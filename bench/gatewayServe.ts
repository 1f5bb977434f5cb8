// `mcp-tool-host serve --config FILE --rules FILE` as main.ts runs it, with the rate limit raised:
// case 12 times the gateway's path (catalogue, pins, validation, rules, audit line, masking, two
// hops over stdio), and the default limit (burst 20, 10 calls a second per server) would time the
// limit instead. Run by bench/gatewayCase.ts as a child process: `node out/bench/gatewayServe.js CONFIG RULES`.
import { readCliRules } from '../src/cli/cliRules';
import { loadConfig } from '../src/cli/config';
import { createHost } from '../src/cli/host';
import { serve } from '../src/cli/serve';

async function main(): Promise<void> {
  const [config, rules] = process.argv.slice(2);
  const loaded = loadConfig(config, { trust: true });
  const host = createHost(loaded.servers, { clientVersion: 'bench' });
  try {
    await serve(host, { configFile: loaded.file, http: false, tools: 'all', rules: readCliRules([rules], process.cwd()).set, clientVersion: 'bench', rateLimit: { burst: 1e9, perSecond: 1e9 } });
  } finally {
    await host.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('gatewayServe failed:', err);
    process.exit(1);
  },
);
