import { CallPipeline } from '../core/calls/callPipeline';
import { defaultCliAuditFile, FileAuditLog } from '../core/calls/fileAuditLog';
import type { ServerConnection } from '../core/connection/serverConnection';
import { ServerState } from '../core/connection/serverState';
import { loadOffers } from '../core/offers/load';
import type { CompletionRef, PromptMessagePart, PromptOffers } from '../core/offers/offerTypes';
import { sanitizeLine, shownName, visibleJson } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';
import type { CliHost } from './host';

/** The offers of the CLI's servers: no call is made through them, so the pipeline refuses any it were asked. */
function offersOf(host: CliHost, auditFile: string | undefined): PromptOffers {
  const pipeline = new CallPipeline(host.pool, host.validator, { approve: async () => 'deny' }, { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined });
  return loadOffers().newPromptOffers({ pool: host.pool, pipeline, audit: new FileAuditLog(auditFile ?? defaultCliAuditFile()) });
}

/** Starts the server a command is about; a server that does not start is exit 4 with its cause. */
async function started(host: CliHost, server: string): Promise<ServerConnection> {
  const connection = host.pool.get(server);
  await connection?.start();
  if (!connection || !ServerState.isRunning(connection.state)) {
    const why = connection?.state.kind === 'error' ? connection.state.message : 'it is not running';
    throw new CliError(`Server "${shownName(server)}" did not start: ${sanitizeLine(why)}`, Exit.connection);
  }
  return connection;
}

/** `prompts SERVER`: the server's prompts and their arguments. Exit 4 when it does not start or its listing fails. */
export async function listPrompts(host: CliHost, server: string, json: boolean): Promise<ExitCode> {
  await started(host, server);
  const offers = offersOf(host, undefined);
  try {
    const list = await offers.prompts(server).catch((err: unknown) => {
      throw new CliError(`Server "${shownName(server)}": ${err instanceof Error ? err.message : String(err)}`, Exit.connection);
    });
    if (json) {
      console.log(visibleJson({ server, prompts: list.items.map(({ server: _s, ...p }) => p), cut: list.cut }, 2));
    } else {
      for (const p of list.items) {
        const args = p.arguments.map((a) => (a.required ? shownName(a.name) : `[${shownName(a.name)}]`)).join(' ');
        console.log(`${shownName(p.name)}${args ? ` ${args}` : ''}${p.title ? `  (${p.title})` : ''}`);
        if (p.description) console.log(`      ${p.description}`);
      }
      if (list.items.length === 0) console.log('(no prompts)');
      if (list.cut) console.error(`warning: ${list.cut}`);
    }
    return Exit.ok;
  } finally {
    offers.dispose();
  }
}

/**
 * `prompt SERVER NAME [key=value...]`: the prompt's messages as they would be sent, hidden
 * characters written as escapes. A malformed or missing argument is a usage error (2, nothing sent);
 * a server that fails the prompt, 4.
 */
export async function getPrompt(host: CliHost, options: { server: string; name: string; pairs: readonly string[]; json: boolean; auditFile?: string }): Promise<ExitCode> {
  const args = parsePairs(options.pairs);
  await started(host, options.server);
  const offers = offersOf(host, options.auditFile);
  try {
    const listed = (await offers.prompts(options.server).catch(() => undefined))?.items.find((p) => p.name === options.name);
    const missing = listed?.arguments.filter((a) => a.required && args[a.name] === undefined).map((a) => shownName(a.name)) ?? [];
    if (missing.length > 0) throw new CliError(`The prompt "${shownName(options.name)}" needs ${missing.join(', ')} (as name=value).`);
    const outcome = await offers.get({ server: options.server, name: options.name, args, origin: 'cli' });
    if (outcome.kind === 'failed') {
      if (options.json) console.log(visibleJson({ server: options.server, prompt: options.name, outcome: 'failed', exitCode: Exit.connection, message: outcome.message }, 2));
      else console.error(outcome.message);
      return Exit.connection;
    }
    if (options.json) console.log(visibleJson({ server: options.server, prompt: options.name, outcome: 'ok', description: outcome.description, messages: outcome.messages.map(jsonOf) }, 2));
    else {
      if (outcome.description) console.log(`# ${outcome.description}`);
      for (const m of outcome.messages) console.log(`[${m.role}] ${textOf(m)}`);
    }
    return Exit.ok;
  } finally {
    offers.dispose();
  }
}

/** `complete SERVER (--prompt NAME | --template URI) ARG VALUE`: the server's suggestions, one a line. None is not an error. */
export async function complete(host: CliHost, options: { server: string; ref: CompletionRef; argument: string; value: string; json: boolean }): Promise<ExitCode> {
  await started(host, options.server);
  const offers = offersOf(host, undefined);
  try {
    const answer = await offers.complete({ server: options.server, ref: options.ref, argument: { name: options.argument, value: options.value } });
    if (options.json) console.log(visibleJson({ server: options.server, ...answer }, 2));
    else for (const v of answer.values) console.log(v);
    return Exit.ok;
  } finally {
    offers.dispose();
  }
}

/** key=value words as a prompt's arguments (each a string); a word without "=" is a usage error. */
export function parsePairs(pairs: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliError(`"${shownName(pair)}" is not an argument: write name=value.`, Exit.usage, true);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}

/** A message as the terminal shows it: its text is already escaped; bytes and links are described. */
function textOf(m: PromptMessagePart): string {
  switch (m.kind) {
    case 'text':
      return m.text;
    case 'image':
    case 'audio':
      return `[${m.kind} ${m.mimeType}, ${m.bytes.length} bytes]`;
    case 'resource':
      return m.part.kind === 'text' ? `[resource ${m.part.uri}]\n${m.part.text}` : `[resource ${m.part.uri}, ${m.part.mimeType ?? 'binary'}, ${m.part.bytes.length} bytes]`;
    case 'resource_link':
      return `[resource link] ${m.name} ${m.uri}`;
  }
}

function jsonOf(m: PromptMessagePart): unknown {
  if (m.kind === 'image' || m.kind === 'audio') return { role: m.role, kind: m.kind, mimeType: m.mimeType, data: Buffer.from(m.bytes).toString('base64') };
  if (m.kind === 'resource' && m.part.kind === 'binary') return { role: m.role, kind: m.kind, uri: m.part.uri, mimeType: m.part.mimeType, blob: Buffer.from(m.part.bytes).toString('base64') };
  return m;
}
