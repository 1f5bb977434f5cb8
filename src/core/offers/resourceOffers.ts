import type { ServerConnection } from '../connection/serverConnection';
import { ServerState } from '../connection/serverState';
import type { Disposable, Event, Listener } from '../events';
import { sanitizeLine, sanitizeText, shownName } from '../render/sanitize';
import { listOffers, textField } from './offerListing';
import type { InterfaceRead, OfferHost, OfferList, ReadOutcome, ReadRequest, ResourceEntry, ResourceOffers, TemplateEntry } from './offerTypes';
import { readInterface, readResource } from './resourceReads';
import { ResourceWatch } from './resourceWatch';
import { expandTemplate, templateVariables } from './uriTemplates';

/** JSON-RPC's code for a method the server does not have. */
const METHOD_NOT_FOUND = -32601;

/** How long a listing, and a change told to surfaces, waits after the last of its kind: a list_changed storm lists each kind once a second at most. */
export const RELIST_GAP_MS = 1000;
/** A URI longer than this is left out of a listing: a URI is a line in a list, not a document. */
const MAX_URI_CHARS = 8192;

/** What is known of one server's resources: the listings (shared by everyone who asks), and when the next may start. */
interface ServerOffers {
  readonly connection: ServerConnection;
  resources?: Promise<OfferList<ResourceEntry>>;
  templates?: Promise<OfferList<TemplateEntry>>;
  /** The earliest the next listing of each kind may start (Date.now() time): resources and templates are paced apart, so a first listing of both goes out together. */
  readonly nextListing: { resources: number; templates: number };
  /** A change told to surfaces is on its way (throttled). */
  changeTimer?: NodeJS.Timeout;
  lastChangeTold: number;
  readonly listeners: Disposable[];
}

/**
 * A server's resources and templates (offerTypes.ts): each listing walked to its end within
 * limits (offerListing.ts) and kept until the server says its list changed or starts again; the
 * listings that follow a change are paced (RELIST_GAP_MS), so a server that never stops saying so
 * costs one listing of each kind (resources, templates) a second. Reads go through
 * resourceReads.ts, subscriptions through resourceWatch.ts.
 */
export class ResourceOfferCatalog implements ResourceOffers {
  // A listener set of its own, not the Emitter class: this bundle would hold a second copy of it.
  private readonly _listeners = new Set<Listener<string>>();
  readonly onDidChange: Event<string> = (listener) => {
    this._listeners.add(listener);
    return { dispose: () => void this._listeners.delete(listener) };
  };
  private readonly _servers = new Map<string, ServerOffers>();
  private readonly _watch: ResourceWatch;

  constructor(private readonly _host: OfferHost) {
    this._watch = new ResourceWatch(_host.pool);
  }

  resources(server: string): Promise<OfferList<ResourceEntry>> {
    const s = this._stateOrUndefined(server);
    if (!s) return Promise.reject(new Error(`No server named "${shownName(server)}" is configured.`));
    if (!s.resources) s.resources = this._remember(s, 'resources', () => this._list(s, 'resources', 'resources/list', 'resources', (raw) => resourceEntry(server, raw)));
    return s.resources;
  }

  templates(server: string): Promise<OfferList<TemplateEntry>> {
    const s = this._stateOrUndefined(server);
    if (!s) return Promise.reject(new Error(`No server named "${shownName(server)}" is configured.`));
    if (!s.templates) s.templates = this._remember(s, 'templates', () => this._list(s, 'templates', 'resources/templates/list', 'resourceTemplates', (raw) => templateEntry(server, raw)));
    return s.templates;
  }

  read(request: ReadRequest): Promise<ReadOutcome> {
    return readResource(this._host, request);
  }

  readInterface(request: { readonly server: string; readonly uri: string }): Promise<InterfaceRead> {
    return readInterface(this._host, request);
  }

  expand(template: TemplateEntry, values: Readonly<Record<string, string>>): { readonly uri: string } | { readonly problem: string } {
    return expandTemplate(template.uriTemplate, values);
  }

  subscribe(server: string, uri: string, onUpdated: () => void): Disposable {
    this._state(server);
    return this._watch.subscribe(server, uri, onUpdated);
  }

  dispose(): void {
    for (const s of this._servers.values()) this._forget(s);
    this._servers.clear();
    this._watch.dispose();
    this._listeners.clear();
  }

  /** A listing that failed is not kept: the next ask tries again. */
  private _remember<T>(s: ServerOffers, kind: 'resources' | 'templates', list: () => Promise<OfferList<T>>): Promise<OfferList<T>> {
    const listing = list();
    listing.catch(() => {
      if (s[kind] === (listing as unknown)) s[kind] = undefined;
    });
    return listing;
  }

  /** One listing, paced after the one of its kind before it; a server without the `resources` capability has none (and is not asked). */
  private async _list<T>(s: ServerOffers, kind: 'resources' | 'templates', method: string, key: string, check: (raw: Record<string, unknown>) => T | string): Promise<OfferList<T>> {
    const c = s.connection;
    const wait = s.nextListing[kind] - Date.now();
    s.nextListing[kind] = Math.max(Date.now(), s.nextListing[kind]) + RELIST_GAP_MS;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!ServerState.isRunning(c.state)) throw new Error(`Server "${shownName(c.name)}" is not running.`);
    if (!c.serverCapabilities.resources) return { items: [] };
    const timeoutMs = c.definition.timeoutSeconds * 1000;
    let listing: OfferList<T>;
    try {
      listing = await listOffers({ method, key, check, log: c.log, fetchPage: (cursor) => c.request(method, cursor === undefined ? undefined : { cursor }, { timeoutMs }) });
    } catch (err) {
      // Many servers with resources have no templates and answer "method not found": that is none, kept like any listing, not a failure asked again (and logged) at every look.
      if (kind !== 'templates' || (err as { code?: unknown }).code !== METHOD_NOT_FOUND) throw err;
      c.log.info(`The server has no resources/templates/list (method not found): it offers no resource templates.`);
      return { items: [] };
    }
    if (listing.cut) c.log.warn(listing.cut);
    return listing;
  }

  private _stateOrUndefined(server: string): ServerOffers | undefined {
    return this._host.pool.get(server) ? this._state(server) : undefined;
  }

  /** The server's state, made when first asked (and again when the pool holds a new connection under its name). */
  private _state(server: string): ServerOffers {
    const connection = this._host.pool.get(server);
    if (!connection) throw new Error(`No server named "${shownName(server)}" is configured.`);
    const known = this._servers.get(server);
    if (known?.connection === connection) return known;
    if (known) this._forget(known);
    const s: ServerOffers = { connection, nextListing: { resources: 0, templates: 0 }, lastChangeTold: 0, listeners: [] };
    let running = ServerState.isRunning(connection.state);
    s.listeners.push(
      connection.onOfferNotice((notice) => {
        if (notice.kind === 'resources-changed') this._changed(s);
      }),
      connection.onDidChangeState((state) => {
        const now = ServerState.isRunning(state);
        // A new launch (or the end of one): what was listed belongs to the launch before.
        if (now !== running) this._changed(s);
        running = now;
      }),
    );
    this._servers.set(server, s);
    return s;
  }

  /** The lists are dropped now; surfaces hear of it at most once a gap, after the last change. */
  private _changed(s: ServerOffers): void {
    s.resources = s.templates = undefined;
    if (s.changeTimer) return;
    const wait = Math.max(0, s.lastChangeTold + RELIST_GAP_MS - Date.now());
    s.changeTimer = setTimeout(() => {
      s.changeTimer = undefined;
      s.lastChangeTold = Date.now();
      if (this._servers.get(s.connection.name) === s) for (const l of [...this._listeners]) l(s.connection.name);
    }, wait);
  }

  private _forget(s: ServerOffers): void {
    clearTimeout(s.changeTimer);
    for (const l of s.listeners) l.dispose();
  }
}

/** A `resources/list` entry as we keep it, or why it is left out. */
function resourceEntry(server: string, raw: Record<string, unknown>): ResourceEntry | string {
  const uri = raw.uri;
  if (typeof uri !== 'string' || uri === '') return 'it has no uri';
  if (uri.length > MAX_URI_CHARS) return `its uri is longer than ${MAX_URI_CHARS} characters`;
  // A URI with control or invisible characters could show as another one: never listed to be read.
  if (sanitizeLine(uri) !== uri) return 'its uri holds control or invisible characters';
  const texts = stringsOf(raw, ['name', 'title', 'description', 'mimeType']);
  if (typeof texts === 'string') return texts;
  if (texts.name === undefined) return 'it has no name';
  // Built field by field, not spread: a listing makes 10,000 of these (BENCHMARKS.md case 11).
  const entry: { -readonly [K in keyof ResourceEntry]: ResourceEntry[K] } = { server, uri, name: texts.name };
  if (texts.title !== undefined) entry.title = texts.title;
  if (texts.description !== undefined) entry.description = texts.description;
  if (texts.mimeType !== undefined) entry.mimeType = texts.mimeType;
  if (typeof raw.size === 'number' && Number.isFinite(raw.size) && raw.size >= 0) entry.size = raw.size;
  return entry;
}

/** A `resources/templates/list` entry with the variables its template names, or why it is left out. */
function templateEntry(server: string, raw: Record<string, unknown>): TemplateEntry | string {
  const uriTemplate = raw.uriTemplate;
  if (typeof uriTemplate !== 'string' || uriTemplate === '') return 'it has no uriTemplate';
  if (sanitizeLine(uriTemplate) !== uriTemplate) return 'its uriTemplate holds control or invisible characters';
  const variables = templateVariables(uriTemplate);
  if ('problem' in variables) return `its uriTemplate cannot be read: ${variables.problem}`;
  const texts = stringsOf(raw, ['name', 'title', 'description', 'mimeType']);
  if (typeof texts === 'string') return texts;
  if (texts.name === undefined) return 'it has no name';
  return { server, uriTemplate, ...texts, name: texts.name, variables };
}

/** The entry's text fields, safe to show (names one line), or why the entry is left out. */
function stringsOf(raw: Record<string, unknown>, keys: readonly ('name' | 'title' | 'description' | 'mimeType')[]): { name?: string; title?: string; description?: string; mimeType?: string } | string {
  const out: { name?: string; title?: string; description?: string; mimeType?: string } = {};
  for (const key of keys) {
    const value = textField(raw, key);
    if (value === false) return `its ${key} is not text`;
    if (value !== undefined && value !== '') out[key] = key === 'description' ? sanitizeText(value) : sanitizeLine(value);
  }
  return out;
}
