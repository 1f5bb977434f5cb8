import { LOG_LEVELS, type LogLevel } from '../../core/offers/offerTypes';
import type { PromptEvents } from '../shared/promptEvents';
import type * as Later from './later';
import type { OpenedAs } from './openResource';
import type { ResourceDeps, ResourceTarget, TemplateTarget } from './resourceDeps';

/** What a server command may get: a tree row (it has `server`), a name, or nothing (the palette). */
export type ServerArg = string | { readonly server?: unknown } | undefined;

/**
 * Open Resource, Open Resource from Template..., Browse Resources... and Set Log Level..., from
 * the Tools view's rows, its server menu and the palette. Their bodies load at first use.
 */
export class ResourceCommands {
  constructor(
    private readonly _deps: ResourceDeps,
    private readonly _prompts: PromptEvents,
    private readonly _later: () => { readonly resources: typeof Later },
  ) {}

  /** A resource row's click; from the palette, Browse Resources. `saveTo` (a `vscode.Uri`): where bytes VS Code cannot show are saved, without asking. */
  open(arg?: ResourceTarget | RowArg, saveTo?: unknown): Promise<OpenedAs | undefined> {
    const target = fromRow(arg);
    if (!isResource(target)) return this.browse();
    return this._later().resources.openResource(this._deps, target, saveTo);
  }

  openFromTemplate(arg?: TemplateTarget | RowArg): Promise<OpenedAs | undefined> {
    const target = fromRow(arg) as Partial<TemplateTarget> | undefined;
    const template = target && typeof target.server === 'string' && typeof target.uriTemplate === 'string' ? { server: target.server, uriTemplate: target.uriTemplate } : undefined;
    return this._later().resources.openFromTemplate(this._deps, this._prompts, template);
  }

  browse(arg?: ServerArg): Promise<OpenedAs | undefined> {
    return this._later().resources.browseResources(this._deps, this._prompts, serverOf(arg));
  }

  setLogLevel(arg?: ServerArg, level?: unknown): Promise<LogLevel | undefined> {
    return this._later().resources.setLogLevel(this._deps, serverOf(arg), LOG_LEVELS.find((l) => l === level));
  }
}

/** A row of the Tools view, as its context menu hands it: the entry it shows. */
type RowArg = { readonly kind: 'offer'; readonly server: string; readonly entry?: object };

/** A row's entry with its server (what the context menu gives), or the argument as it is (a row's click, a test). */
function fromRow(arg: unknown): unknown {
  if (typeof arg === 'object' && arg !== null && 'kind' in arg && 'entry' in arg && typeof arg.entry === 'object') return { ...arg.entry, server: (arg as RowArg).server };
  return arg;
}

function isResource(t: unknown): t is ResourceTarget {
  return typeof t === 'object' && t !== null && typeof (t as ResourceTarget).server === 'string' && typeof (t as ResourceTarget).uri === 'string';
}

function serverOf(arg: ServerArg): string | undefined {
  if (typeof arg === 'string') return arg;
  return typeof arg?.server === 'string' ? arg.server : undefined;
}
