import { newRegistryClient, RegistryError } from '../core/install/registryClient';
import type { RegistryClient, RegistryEntry, RegistryPage } from '../core/install/registryTypes';
import { policyFiles, policyRegistryUrl } from '../core/policy/policyFiles';
import { visibleJson, visibleLine } from '../core/render/sanitize';
import { CliError, Exit, type ExitCode } from './args';

/** The official registry. */
export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

/**
 * The registry a run reads: --registry, else MCP_TOOL_HOST_REGISTRY, else the official one. An
 * administrator's policy file that pins `registryUrl` wins, and a different URL asked for is
 * refused naming that file: an organisation that vets its servers does not want them picked
 * from elsewhere.
 */
export function registryUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const asked = flag ?? (env.MCP_TOOL_HOST_REGISTRY || undefined);
  const pin = policyRegistryUrl(policyFiles(env));
  if (pin && 'problem' in pin) throw new CliError(`${pin.problem} Nothing was asked of any registry.`);
  if (pin) {
    if (asked !== undefined && trimmed(asked) !== trimmed(pin.url)) throw new CliError(`The policy file ${pin.file} pins the registry to ${pin.url}; ${flag !== undefined ? '--registry' : 'MCP_TOOL_HOST_REGISTRY'} ${visibleLine(asked)} is refused.`);
    return pin.url;
  }
  return asked ?? DEFAULT_REGISTRY;
}

/** Entries a search prints at a time: about a screen. */
const SEARCH_PAGE = 20;

const trimmed = (url: string) => url.trim().replace(/\/+$/, '');

/** A client of the registry, or the CliError that says why its URL cannot be used. */
export function registryClient(url: string): RegistryClient {
  try {
    return newRegistryClient({ baseUrl: url });
  } catch (err) {
    if (err instanceof RegistryError) throw new CliError(err.message);
    throw err;
  }
}

/** A registry's failure as the CLI reports it: a connection error (exit 4), one sentence. */
export async function asking<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RegistryError) throw new CliError(err.message, Exit.connection);
    throw err;
  }
}

/** `search [QUERY]`: one page of the registry's latest versions, each with what it runs or why it cannot be installed. */
export async function searchCommand(options: { readonly query: string; readonly registry?: string; readonly cursor?: string; readonly json: boolean }): Promise<ExitCode> {
  const client = registryClient(registryUrl(options.registry));
  const page = await asking(() => client.search(options.query, { cursor: options.cursor, limit: SEARCH_PAGE }));
  if (options.json) {
    console.log(visibleJson({ registry: client.baseUrl, entries: page.entries, nextCursor: page.nextCursor, dropped: page.dropped }, 2));
    return Exit.ok;
  }
  console.log(searchText(page, client.baseUrl, options.query));
  return Exit.ok;
}

/** The page as a reader sees it (every text of it already bounded and made visible by the client). */
export function searchText(page: RegistryPage, registry: string, query: string): string {
  const lines: string[] = [];
  if (page.entries.length === 0) lines.push(`No server in ${registry} matches "${visibleLine(query)}".`);
  for (const entry of page.entries) lines.push(...entryLines(entry), '');
  for (const d of page.dropped) lines.push(`not shown: ${d.name}: ${d.reason}`);
  if (page.nextCursor) lines.push(`More: mcp-tool-host search ${query ? `${JSON.stringify(visibleLine(query))} ` : ''}--cursor ${page.nextCursor}${registry === DEFAULT_REGISTRY ? '' : ` --registry ${registry}`}`);
  return lines.join('\n').trimEnd();
}

function entryLines(entry: RegistryEntry): string[] {
  const lines = [`${entry.name} ${entry.version}${entry.title ? `  ${entry.title}` : ''}`];
  if (entry.description) lines.push(`  ${entry.description}`);
  if (entry.repositoryUrl) lines.push(`  repository: ${entry.repositoryUrl}`);
  if (entry.options.length === 0) lines.push('  (lists no package or remote: nothing to install)');
  for (const option of entry.options) lines.push(option.plan ? `  runs: ${option.label}` : option.bundle ? `  runs: ${option.label} (a bundle, downloaded and checked against its sha256)` : `  cannot install ${option.label}: ${option.problem}`);
  return lines;
}
