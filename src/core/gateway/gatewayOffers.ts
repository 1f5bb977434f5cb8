import type { Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import { ServerState } from '../connection/serverState';
import type { Disposable } from '../events';
import { loadOffers } from '../offers/load';
import type { PromptOffers, ResourceOffers } from '../offers/offerTypes';
import { sanitizeLine, shownName } from '../render/sanitize';
import type { GatewayDeps } from './gatewayTypes';
import { mayStayPlain, templateMatches, unwrapUri, wrappedUri } from './resourceUris';
import { gatewayToolName, serverPrefixes } from './toolNames';

/** Titles and descriptions are cut as a tool's are: they come from the servers and reach a model. */
const MAX_TITLE = 200;
const MAX_DESCRIPTION = 8 * 1024;

/** Where a client's URI leads: a server and its own URI, or why none (the client is told, with the URI). */
export type UriRoute = { readonly server: string; readonly uri: string } | { readonly problem: string };

/**
 * What the offered servers offer besides tools, under names a client can tell apart: prompts as
 * `<prefix>_<prompt>` (as tools), resources and templates by their own URI where no other offered
 * server has the same, else wrapped (resourceUris.ts). Listings, reads and prompts go through the
 * host's own offers (core/offers): bounded listings, audited and capped reads, safe prompt text.
 */
export class GatewayOffers implements Disposable {
  readonly resources: ResourceOffers;
  readonly prompts: PromptOffers;

  constructor(private readonly _deps: GatewayDeps) {
    const host = { pool: _deps.pool, pipeline: _deps.pipeline, audit: _deps.audit, maxReadBytes: _deps.maxReadBytes };
    this.resources = loadOffers().newResourceOffers(host);
    this.prompts = loadOffers().newPromptOffers(host);
  }

  /** The offered servers that run now, each with its prefix, in a stable order. */
  running(capability: 'resources' | 'prompts' | 'completions' | 'logging'): { readonly server: string; readonly prefix: string }[] {
    const connections = this._deps.pool.connections;
    const prefixes = serverPrefixes(connections.map((c) => c.name));
    return connections
      .filter((c) => (this._deps.offers?.(c.name) ?? true) && ServerState.isRunning(c.state) && c.serverCapabilities[capability] !== undefined)
      .map((c) => ({ server: c.name, prefix: prefixes.get(c.name)! }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  }

  /** Every offered server's resources; a URI more than one lists is offered wrapped for each. */
  async resourceList(): Promise<Resource[]> {
    const listed = await this._all('resources', (s) => this.resources.resources(s));
    const count = countBy(listed.flatMap(({ items }) => items.map((r) => r.uri)));
    return listed.flatMap(({ prefix, items }) =>
      items.map((r) => ({
        uri: count.get(r.uri) === 1 && mayStayPlain(r.uri) ? r.uri : wrappedUri(prefix, r.uri),
        name: r.name,
        ...texts(r.title, r.description),
        ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
        ...(r.size !== undefined && { size: r.size }),
      })),
    );
  }

  async templateList(): Promise<ResourceTemplateType[]> {
    const listed = await this._all('resources', (s) => this.resources.templates(s));
    const count = countBy(listed.flatMap(({ items }) => items.map((t) => t.uriTemplate)));
    return listed.flatMap(({ prefix, items }) =>
      items.map((t) => ({
        uriTemplate: count.get(t.uriTemplate) === 1 && mayStayPlain(t.uriTemplate) ? t.uriTemplate : wrappedUri(prefix, t.uriTemplate),
        name: t.name,
        ...texts(t.title, t.description),
        ...(t.mimeType !== undefined && { mimeType: t.mimeType }),
      })),
    );
  }

  /**
   * The server a client's URI is read from: a wrapped URI names it; a plain one goes to the one
   * server that lists it, else to the one whose template it fits. A URI no offered server lists or
   * templates is not found (nothing is sent); one that two could take must be read wrapped.
   */
  async route(uri: string): Promise<UriRoute> {
    const wrapped = unwrapUri(uri);
    if (wrapped) {
      const owner = this.running('resources').find((s) => s.prefix === wrapped.prefix);
      return owner ? { server: owner.server, uri: wrapped.uri } : { problem: `Resource not found: no offered server has the prefix "${shownName(wrapped.prefix)}"` };
    }
    const resources = await this._all('resources', (s) => this.resources.resources(s));
    let owners: { readonly server: string; readonly prefix: string }[] = resources.filter(({ items }) => items.some((r) => r.uri === uri));
    if (owners.length === 0) {
      const templates = await this._all('resources', (s) => this.resources.templates(s));
      owners = templates.filter(({ items }) => items.some((t) => templateMatches(t.uriTemplate, uri)));
    }
    if (owners.length === 1 && mayStayPlain(uri)) return { server: owners[0].server, uri };
    if (owners.length === 0) return { problem: 'Resource not found' };
    return { problem: `Resource URI is ambiguous: more than one server offers it; read it as one of ${owners.map((o) => wrappedUri(o.prefix, uri)).join(', ')}` };
  }

  /** The server and its own template of a template URI a client completes (as resources/templates/list gave it). */
  async templateOwner(uriTemplate: string): Promise<UriRoute> {
    const wrapped = unwrapUri(uriTemplate);
    const templates = await this._all('resources', (s) => this.resources.templates(s));
    const owners = wrapped
      ? templates.filter((t) => t.prefix === wrapped.prefix && t.items.some((i) => i.uriTemplate === wrapped.uri)).map((t) => ({ server: t.server, uri: wrapped.uri }))
      : templates.filter((t) => t.items.some((i) => i.uriTemplate === uriTemplate)).map((t) => ({ server: t.server, uri: uriTemplate }));
    return owners.length === 1 ? owners[0] : { problem: owners.length === 0 ? 'No offered resource template has this URI template' : 'Resource template is ambiguous: read the templates list again' };
  }

  /** Every offered server's prompts under their gateway names, and whose each is. */
  async promptList(): Promise<{ readonly prompt: Prompt; readonly server: string; readonly name: string }[]> {
    const listed = await this._all('prompts', (s) => this.prompts.prompts(s));
    return listed.flatMap(({ server, prefix, items }) =>
      items.map((p) => ({
        server,
        name: p.name,
        prompt: {
          name: gatewayToolName(prefix, p.name, items.map((i) => i.name)),
          ...texts(p.title, p.description),
          arguments: p.arguments.map((a) => ({ name: a.name, ...texts(a.title, a.description), required: a.required })),
        },
      })),
    );
  }

  async promptOwner(name: string): Promise<{ readonly server: string; readonly name: string; readonly prompt: Prompt } | undefined> {
    return (await this.promptList()).find((p) => p.prompt.name === name);
  }

  /** One listing of each running offered server with the capability; one whose listing fails is left out, with a line. */
  private async _all<T>(capability: 'resources' | 'prompts', list: (server: string) => Promise<{ readonly items: readonly T[] }>): Promise<{ readonly server: string; readonly prefix: string; readonly items: readonly T[] }[]> {
    return Promise.all(
      this.running(capability).map(async ({ server, prefix }) => {
        try {
          return { server, prefix, items: (await list(server)).items };
        } catch (err) {
          this._deps.log?.warn(`gateway: listing the ${capability} of "${shownName(server)}" failed: ${sanitizeLine(err instanceof Error ? err.message : String(err))}`);
          return { server, prefix, items: [] };
        }
      }),
    );
  }

  dispose(): void {
    this.resources.dispose();
    this.prompts.dispose();
  }
}

function countBy(values: readonly string[]): Map<string, number> {
  const count = new Map<string, number>();
  for (const v of values) count.set(v, (count.get(v) ?? 0) + 1);
  return count;
}

function texts(title: string | undefined, description: string | undefined): { title?: string; description?: string } {
  return { ...(title !== undefined && { title: title.slice(0, MAX_TITLE) }), ...(description !== undefined && { description: description.slice(0, MAX_DESCRIPTION) }) };
}
