import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveLaunch } from '../core/config/launch';
import type { ServerDefinition } from '../core/config/serverConfig';
import type { VariableContext } from '../core/config/variables';
import { ServerPool } from '../core/connection/serverPool';
import { sanitizeLine } from '../core/render/sanitize';
import { silentLog } from '../core/serverLog';
import { SchemaValidator } from '../core/tools/schemaValidator';
import { cliOAuthHost, type BrowserChoice } from './oauthHost';
import type { Elicitor } from '../core/elicitation/formElicitation';
import { rememberedEra } from '../core/connection/eraMemory';
import { defaultCliAuditFile } from '../core/calls/fileAuditLog';
import { eraFile } from './eraFile';

export interface CliHost {
  readonly pool: ServerPool;
  readonly validator: SchemaValidator;
  /** What `${workspaceFolder}` and friends resolve against: the current directory. */
  readonly variables: VariableContext;
  close(): Promise<void>;
}

/** A pool for the given servers, not started; `${workspaceFolder}` is the current directory. */
export function createHost(servers: readonly ServerDefinition[], options: { handshakeTimeoutMs?: number; clientVersion: string; elicit?: Elicitor; browser?: BrowserChoice }): CliHost {
  const cwd = process.cwd();
  const variables: VariableContext = { workspaceFolders: [{ name: path.basename(cwd), path: cwd }], env: process.env };
  const validator = new SchemaValidator();
  const oauth = cliOAuthHost(options.browser);
  // Each run is a new start: the era a launch spoke last time saves a 2025-era server the probe.
  const eras = eraFile(stateFile('eras.json'));
  // Nothing prints a server's log in a terminal: doctor reads the connection's facts instead.
  const pool = new ServerPool((name, definition) => ({
    validator,
    clientVersion: options.clientVersion,
    handshakeTimeoutMs: options.handshakeTimeoutMs,
    log: silentLog,
    resolveLaunch: async (def) => resolveLaunch(def, variables),
    oauth,
    elicit: options.elicit,
    // But a server's prompts that the host declined on its own are said, once each, as the other declines are.
    promptsDeclined: (sentence) => console.error(`"${sanitizeLine(name)}": ${sentence}`),
    eraMemory: rememberedEra(eras, definition),
  }));
  pool.apply({ servers: [...servers], errors: [] }, { autoStart: false });
  return {
    pool,
    validator,
    variables,
    async close() {
      await pool.stopAll();
      pool.dispose();
    },
  };
}

/** A file of the CLI's state (remembered eras, rule bindings): beside its default audit log. */
export function stateFile(name: string): string {
  return path.join(path.dirname(defaultCliAuditFile()), name);
}

/** Binary results (images, blobs) go to a fresh temp folder; the output shows the path. */
export async function saveToTemp(data: Buffer, mimeType: string, nameHint: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-tool-host-'));
  const ext = /^[a-z0-9.-]{1,10}$/i.test(mimeType.split('/')[1]?.split(/[;+]/)[0] ?? '') ? mimeType.split('/')[1].split(/[;+]/)[0] : 'bin';
  const file = path.join(dir, `${nameHint}.${ext}`);
  await fs.writeFile(file, data);
  return file;
}
