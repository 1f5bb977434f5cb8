import { suggestServerName } from '../config/newServerEntry';
import type { InstallClaim } from './installPlan';
import { packageOption, remoteOption, type EntryContext } from './registryOptions';
import { isObject, list, text } from './registryServerJson';
import { hiddenCharacters, MAX_DESCRIPTION_CHARS, SHOWN_CHARS, shown } from './registryText';
import type { InstallOption, RegistryEntry } from './registryTypes';

/** The schema's server name: reverse-DNS, one slash, 3 to 200 characters. */
const SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** The most packages and remotes of one entry that are looked at. */
const MAX_OPTIONS = 16;
/** Where the official registry keeps what it says about an entry (status, dates) in `_meta`. */
const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** An entry the registry sent that is not shown, and why. */
export interface DroppedEntry {
  readonly name: string;
  readonly reason: string;
}

/**
 * One `{ server, _meta }` of a page as a RegistryEntry: its text bounded and made visible, each
 * package and remote an option with its plan or its problem. An entry whose text hides something
 * (escape sequences, direction overrides) or is far over the schema's bounds is shown, cut, with
 * every option refused; one that cannot even be named is dropped, with why.
 */
export function readEntry(item: unknown, baseUrl: string): { entry: RegistryEntry } | { dropped: DroppedEntry } {
  const server = isObject(item) ? item.server : undefined;
  const rawName = isObject(server) ? server.name : isObject(item) ? item.name : undefined;
  const shownName = typeof rawName === 'string' ? shown(rawName, SHOWN_CHARS.name) : '(no name)';
  const drop = (reason: string) => ({ dropped: { name: shownName, reason } });
  if (!isObject(server)) return drop('it has no "server" object (the v0.1 answer wraps each server.json in one)');
  if (typeof rawName !== 'string' || rawName.length < 3 || rawName.length > 200 || !SERVER_NAME.test(rawName)) return drop('its name is not a registry name (reverse-DNS, one slash, letters, digits, ".", "_" and "-")');
  const name = rawName;
  const title = text(server, 'title');
  const description = text(server, 'description') ?? '';
  const version = text(server, 'version') ?? '';
  const namespace = name.slice(0, name.indexOf('/'));
  const repository = isObject(server.repository) ? webUrl(text(server.repository, 'url')) : undefined;
  const website = webUrl(text(server, 'websiteUrl'));
  const meta = isObject(item) && isObject(item._meta) && isObject(item._meta[OFFICIAL_META]) ? item._meta[OFFICIAL_META] : undefined;
  const status = meta && text(meta, 'status');

  const problems: string[] = [];
  for (const [field, value] of [['title', title], ['description', description], ['version', version]] as const) {
    const hidden = value === undefined ? undefined : hiddenCharacters(value);
    if (hidden) problems.push(`its ${field} hides ${hidden}`);
  }
  if (description.length > MAX_DESCRIPTION_CHARS) problems.push(`its description is ${description.length} characters long (a registry allows 100)`);
  if (status === 'deleted') problems.push('the registry marks it deleted');
  const packages = list(server, 'packages');
  const remotes = list(server, 'remotes');
  if (packages === undefined) problems.push('its "packages" is not a list');
  if (remotes === undefined) problems.push('its "remotes" is not a list');
  if ((packages?.length ?? 0) > MAX_OPTIONS || (remotes?.length ?? 0) > MAX_OPTIONS) problems.push(`it lists more than ${MAX_OPTIONS} packages or remotes`);

  const claims: InstallClaim[] = [
    ...(description ? [{ label: 'Description', value: shown(description, SHOWN_CHARS.description) }] : []),
    { label: 'Publisher namespace', value: shown(namespace, SHOWN_CHARS.name) },
    { label: 'Version', value: shown(version, SHOWN_CHARS.version) },
    ...(repository ? [{ label: 'Repository', value: repository }] : []),
    ...(website ? [{ label: 'Website', value: website }] : []),
    ...(status && status !== 'active' ? [{ label: 'Status', value: shown(status, SHOWN_CHARS.version) }] : []),
  ];
  const context: EntryContext = {
    server: suggestServerName({ command: name.slice(name.indexOf('/') + 1), args: [] }),
    origin: `registry ${baseUrl} ${name}@${shown(version, SHOWN_CHARS.version)}`,
    claims,
  };
  let options: InstallOption[] = [
    ...(packages ?? []).slice(0, MAX_OPTIONS).map((p) => packageOption(p, context)),
    ...(remotes ?? []).slice(0, MAX_OPTIONS).map((r) => remoteOption(r, context)),
  ];
  if (problems.length > 0) {
    const problem = shown(problems.join('; '), SHOWN_CHARS.reason * 2);
    options = options.length > 0 ? options.map((o) => ({ runsVia: o.runsVia, label: o.label, problem })) : [{ runsVia: 'unknown', label: 'this entry', problem }];
  }
  return {
    entry: {
      name,
      ...(title ? { title: shown(title, SHOWN_CHARS.title) } : {}),
      description: shown(description, SHOWN_CHARS.description),
      version: shown(version, SHOWN_CHARS.version),
      namespace,
      ...(repository ? { repositoryUrl: repository } : {}),
      ...(website ? { websiteUrl: website } : {}),
      options,
    },
  };
}

/** A link worth showing: http(s), without credentials, bounded; anything else is not shown at all. */
function webUrl(value: string | undefined): string | undefined {
  if (value === undefined || !/^https?:\/\/[^\s@]+$/i.test(value) || value.length > 2048) return undefined;
  return shown(value, SHOWN_CHARS.url);
}

