import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs the installed `mcpb` tool (the format's own packer and signer) with `args`. */
export function mcpbTool(args: readonly string[]): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js'), ...args], { stdio: 'pipe', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
}

/** The greeter bundle (test/fixtures/bundles/greeter), packed by the `mcpb` tool into `dir`; returns the file. */
export function packGreeter(dir: string): string {
  const source = path.join(dir, 'greeter');
  fs.cpSync(path.join(ROOT, 'test/fixtures/bundles/greeter'), source, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/servers/miniServer.cjs'), path.join(source, 'server/miniServer.cjs'));
  const out = path.join(dir, 'greeter.mcpb');
  mcpbTool(['pack', source, out]);
  return out;
}
