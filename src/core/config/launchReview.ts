import { loadConfigOptions } from './load';
import type { HttpServerSpec, StdioServerSpec } from './serverConfig';

const VARIABLE = /\$\{(env|input):([^}]+)\}/g;

/** One variable of the environment a launch sets, as written. */
export interface EnvEntry {
  readonly name: string;
  /** The value as written (variables not substituted); null: removed from the inherited environment. */
  readonly value: string | null;
  readonly loadsCode: boolean;
}

/** The variables a stdio launch sets or removes, code-loading ones first. */
export function envEntries(spec: StdioServerSpec): EnvEntry[] {
  const { loadsCode } = loadConfigOptions();
  const entries = Object.entries(spec.env).map(([name, value]) => ({ name, value, loadsCode: loadsCode(name) }));
  return [...entries.filter((e) => e.loadsCode), ...entries.filter((e) => !e.loadsCode)];
}

/** Something an http launch sends: a header, or a credential of its `oauth` entry, and where each value comes from. */
export interface SentValue {
  /** Where it goes: `header Authorization`, `oauth.clientSecret`, `url`. */
  readonly where: string;
  /** The value as written: variables as `${env:NAME}` / `${input:id}`. */
  readonly written: string;
  /** The user's environment variables it sends. */
  readonly envNames: readonly string[];
}

/** The local files an http launch reads and sends (key files, token files), by setting. */
export interface ReadFile {
  readonly where: string;
  readonly file: string;
}

/** Everything an http launch sends beyond the request itself, and the files it reads for it. */
export function httpSends(spec: HttpServerSpec): { sent: SentValue[]; files: ReadFile[] } {
  const sent: SentValue[] = [];
  const add = (where: string, written: string | undefined) => written !== undefined && sent.push({ where, written, envNames: envNamesIn(written) });
  if (envNamesIn(spec.url).length) add('url', spec.url);
  for (const [name, value] of Object.entries(spec.headers)) add(`header ${name}`, value);
  const o = spec.oauth;
  const files: ReadFile[] = [];
  if (o) {
    add('oauth.clientSecret', o.clientSecret);
    add('oauth.privateKey', o.privateKey);
    add('oauth.assertion', o.assertion);
    add('oauth.idp.clientSecret', o.idp?.clientSecret);
    add('oauth.idp.idToken', o.idp?.idToken);
    for (const [where, file] of [['oauth.privateKeyFile', o.privateKeyFile], ['oauth.assertionFile', o.assertionFile], ['oauth.idp.idTokenFile', o.idp?.idTokenFile]] as const) {
      if (file !== undefined) files.push({ where, file });
    }
    for (const [where, value] of [['oauth.clientId', o.clientId], ['oauth.issuer', o.issuer], ['oauth.scope', o.scope], ['oauth.idp.tokenEndpoint', o.idp?.tokenEndpoint], ['oauth.idp.clientId', o.idp?.clientId], ['oauth.clientMetadataUrl', o.clientMetadataUrl]] as const) {
      if (value !== undefined && envNamesIn(value).length) add(where, value);
    }
  }
  return { sent, files };
}

/** The `${env:NAME}` names in a value (`${env:NAME:-default}` too), in order, once each. */
export function envNamesIn(value: string): string[] {
  return [...new Set([...value.matchAll(VARIABLE)].filter((m) => m[1] === 'env').map((m) => m[2].split(':-')[0]))];
}
