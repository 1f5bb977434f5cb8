import * as fs from 'node:fs';
import { CallPipeline } from '../core/calls/callPipeline';
import { defaultCliAuditFile, FileAuditLog } from '../core/calls/fileAuditLog';
import type { AuditLog } from '../core/calls/ports';
import { ServerState } from '../core/connection/serverState';
import { loadOffers } from '../core/offers/load';
import type { ResourceOffers } from '../core/offers/offerTypes';
import { sanitizeLine, shownName, visibleJson } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import type { CliHost } from './host';

/**
 * The offers over the CLI's pool. The CLI's reads are the user's own (never a model's), so the
 * pipeline here approves nothing: it only satisfies the host's shape.
 */
function offersOf(host: CliHost, audit?: AuditLog): ResourceOffers {
  const sink = { begin: () => undefined, line: () => undefined, end: () => undefined, progress: () => undefined };
  const pipeline = new CallPipeline(host.pool, host.validator, { approve: async () => 'deny' as const }, sink, { audit });
  return loadOffers().newResourceOffers({ pool: host.pool, pipeline, audit });
}

/** Starts the server, or fails as every command does when it cannot (exit 4). */
async function started(host: CliHost, server: string): Promise<void> {
  const connection = host.pool.get(server);
  await connection?.start();
  if (!connection || !ServerState.isRunning(connection.state)) {
    throw new CliError(`Server "${shownName(server)}" did not start: ${connection?.state.kind === 'error' ? connection.state.message : 'it is not running'}`, Exit.connection);
  }
}

/** `resources SERVER [--templates]`: every page of the listing, within its limits; a cut listing says so on stderr. */
export async function listResources(host: CliHost, server: string, templates: boolean, json: boolean): Promise<ExitCode> {
  await started(host, server);
  const offers = offersOf(host);
  try {
    const list = templates ? await offers.templates(server) : await offers.resources(server);
    if (json) {
      console.log(visibleJson({ server, [templates ? 'templates' : 'resources']: list.items, ...(list.cut && { cut: list.cut }) }, 2));
    } else {
      for (const item of list.items) {
        if ('uriTemplate' in item) console.log(`${sanitizeLine(item.uriTemplate)}  ${item.title ?? item.name}${item.variables.length ? `  (${item.variables.join(', ')})` : ''}`);
        else console.log(`${sanitizeLine(item.uri)}  ${item.title ?? item.name}${item.mimeType ? `  ${item.mimeType}` : ''}${item.size !== undefined ? `  ${item.size} bytes (as the server says)` : ''}`);
      }
      if (list.items.length === 0) console.error(`${shownName(server)}: no ${templates ? 'resource templates' : 'resources'}`);
      if (list.cut) console.error(`warning: ${sanitizeLine(list.cut)}`);
    }
    return Exit.ok;
  } catch (err) {
    throw new CliError(`listing failed: ${err instanceof Error ? err.message : String(err)}`, Exit.connection);
  } finally {
    offers.dispose();
  }
}

export interface ReadOptions {
  readonly server: string;
  readonly uri: string;
  readonly json: boolean;
  readonly out?: string;
  readonly auditFile?: string;
}

/**
 * `read SERVER URI`: one `resources/read`, audited like `call`. Text goes to stdout; bytes go to
 * --out, or to stdout when it is a pipe, and are refused on a terminal (they would be noise, or
 * escape sequences). With --json, bytes travel as base64.
 */
export async function readResourceCommand(host: CliHost, options: ReadOptions): Promise<ExitCode> {
  await started(host, options.server);
  const audit = new FileAuditLog(options.auditFile ?? defaultCliAuditFile());
  const offers = offersOf(host, audit);
  try {
    const read = await offers.read({ server: options.server, uri: options.uri, origin: 'cli' });
    if (read.kind !== 'ok') throw new CliError(read.message, read.kind === 'denied' ? Exit.approval : Exit.connection);
    if (options.json && options.out === undefined) {
      const parts = read.parts.map((p) => (p.kind === 'text' ? p : { kind: p.kind, uri: p.uri, mimeType: p.mimeType, base64: Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength).toString('base64') }));
      console.log(visibleJson({ server: options.server, uri: options.uri, bytes: read.bytes, parts }, 2));
      return Exit.ok;
    }
    const chunks = read.parts.map((p) => (p.kind === 'text' ? Buffer.from(p.text.endsWith('\n') ? p.text : `${p.text}\n`) : p.bytes));
    if (options.out !== undefined) {
      fs.writeFileSync(options.out, Buffer.concat(chunks));
      if (options.json) console.log(visibleJson({ server: options.server, uri: options.uri, bytes: read.bytes, out: options.out }, 2));
      else console.error(`${read.bytes} bytes written to ${options.out}`);
      return Exit.ok;
    }
    if (read.parts.some((p) => p.kind === 'binary') && process.stdout.isTTY) {
      throw new CliError(`The resource holds bytes (${read.parts.map((p) => p.mimeType ?? 'unknown type').join(', ')}), which a terminal would show as noise: use --out FILE, or pipe the output.`, Exit.usage);
    }
    for (const c of chunks) process.stdout.write(c);
    return Exit.ok;
  } finally {
    offers.dispose();
  }
}
