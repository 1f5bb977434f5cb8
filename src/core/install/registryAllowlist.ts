import { loadConfigOptions } from '../config/load';
import type { RegistryNameAnswers, RegistryNameRuns } from '../config/serverAllowlist';
import { newRegistryClient } from './registryClient';
import type { RegistryClient } from './registryTypes';

/** The registry an allowlist's registry names mean when the policy pins none. */
export const OFFICIAL_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** The most pages of a search read for one pattern: a pattern broader than that is said to be. */
const MAX_PAGES = 20;

/**
 * What the servers each registryName pattern names run, by the registry's own entries: their
 * packages (as the package runners read the entries' install plans) and remote URLs. A pattern
 * the registry could not answer (unreachable, not the v0.1 API, too broad) gets a problem, which
 * allows nothing.
 */
export async function registryNameRuns(patterns: readonly string[], registryUrl = OFFICIAL_REGISTRY_URL, client?: RegistryClient): Promise<RegistryNameAnswers> {
  const answers = new Map<string, RegistryNameRuns | { readonly problem: string }>();
  let registry: RegistryClient;
  try {
    registry = client ?? newRegistryClient({ baseUrl: registryUrl });
  } catch (err) {
    for (const pattern of patterns) answers.set(pattern, { problem: (err as Error).message });
    return answers;
  }
  for (const pattern of patterns) {
    try {
      answers.set(pattern, await runsOf(registry, pattern));
    } catch (err) {
      answers.set(pattern, { problem: `the registry ${registry.baseUrl} could not be asked: ${(err as Error).message}` });
    }
  }
  return answers;
}

async function runsOf(registry: RegistryClient, pattern: string): Promise<RegistryNameRuns | { readonly problem: string }> {
  const config = loadConfigOptions();
  const packages: RegistryNameRuns['packages'][number][] = [];
  const urls: string[] = [];
  // The registry searches by substring: the part before the first wildcard narrows it.
  const query = pattern.split(/[*?]/, 1)[0];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const found = await registry.search(query, { cursor, limit: 100 });
    for (const entry of found.entries) {
      if (!config.registryNameMatches(pattern, entry.name)) continue;
      for (const option of entry.options) {
        const plan = option.plan;
        if (!plan) continue;
        const { command, args, url } = plan.entry as { command?: unknown; args?: unknown; url?: unknown };
        if (plan.runsVia === 'remote' && typeof url === 'string') urls.push(config.urlWithoutQuery(url));
        if (typeof command === 'string' && Array.isArray(args) && args.every((a) => typeof a === 'string')) {
          const runs = config.launchPackages(command, args as string[]);
          if (runs) packages.push(...runs.names.map((name) => ({ ecosystem: runs.ecosystem, name })));
        }
      }
    }
    cursor = found.nextCursor;
    if (!cursor) return { packages, urls };
  }
  return { problem: `the registry ${registry.baseUrl} lists more than ${MAX_PAGES * 100} servers for "${query}": name them more narrowly` };
}
