import * as vscode from 'vscode';
import type { InstallOption, RegistryClient, RegistryEntry, RegistryPage } from '../../core/install/registryTypes';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

interface Row extends vscode.QuickPickItem {
  readonly entry?: RegistryEntry;
  /** The "Load more..." row: the cursor of the next page. */
  readonly more?: string;
}

/** How long typing pauses before the registry is asked: a request per word, not per key. */
const SEARCH_DELAY_MS = 250;
/** Entries per page. */
const PAGE = 30;
/** How much of an entry's description its row shows (the registry's text is a claim, and may be long). */
const DESCRIPTION_CHARS = 200;

/** Where each way of running an entry runs, as a row says it. */
const RUNS: Readonly<Record<string, string>> = { npm: 'npm', pypi: 'PyPI', oci: 'OCI', mcpb: 'MCPB', remote: 'remote' };

/**
 * The registry's servers in a quick pick that searches as the user types (after a pause; a newer
 * search cancels the one before), a page at a time ("Load more..." keeps the cursor where the new
 * page starts). A registry that fails (offline, an error, an answer that is not one) says so in the
 * pick. Resolves with the entry chosen, or undefined.
 */
export function pickRegistryEntry(client: RegistryClient, prompts: PromptEvents): Promise<RegistryEntry | undefined> {
  const qp = vscode.window.createQuickPick<Row>();
  qp.title = vscode.l10n.t('MCP Tool Host: Add Server from Registry');
  qp.placeholder = vscode.l10n.t('Search the servers of {0}', sanitizeLine(client.baseUrl));
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let running: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let rows: Row[] = [];

  /** Asks for a page; `after` is the rows it follows (a "Load more..."), none for a new search. */
  const search = async (query: string, cursor?: string) => {
    running?.abort();
    const mine = (running = new AbortController());
    qp.busy = true;
    try {
      const page = await client.search(query, { cursor, limit: PAGE, signal: mine.signal });
      if (mine.signal.aborted) return;
      const fresh = pageRows(page, query);
      rows = cursor ? [...rows.filter((r) => r.more === undefined), ...fresh] : fresh;
      qp.items = rows.length ? rows : [{ label: vscode.l10n.t('No server matches "{0}"', visibleLine(query)), alwaysShow: true }];
      // After "Load more..." the cursor is on the first new entry; after a search, on the first.
      const first = fresh.find((r) => r.entry);
      if (cursor && first) qp.activeItems = [first];
    } catch (err) {
      if (mine.signal.aborted) return;
      qp.items = [
        {
          label: `$(error) ${vscode.l10n.t('The registry could not be searched')}`,
          detail: sanitizeLine(err instanceof Error ? err.message : String(err)).slice(0, 300),
          alwaysShow: true,
        },
      ];
    } finally {
      if (running === mine) qp.busy = false;
    }
  };

  return new Promise<RegistryEntry | undefined>((resolve) => {
    qp.onDidChangeValue((value) => {
      clearTimeout(timer);
      running?.abort();
      timer = setTimeout(() => void search(value.trim()), SEARCH_DELAY_MS);
    });
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0] ?? qp.activeItems[0];
      if (picked?.more !== undefined) return void search(qp.value.trim(), picked.more);
      if (!picked?.entry) return;
      resolve(picked.entry);
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
    prompts.show(qp);
    void search('');
  }).finally(() => {
    clearTimeout(timer);
    running?.abort();
    qp.dispose();
  });
}

/** A page's rows: each entry, what was dropped (never silently), and "Load more..." when there is more. */
function pageRows(page: RegistryPage, query: string): Row[] {
  const rows: Row[] = page.entries.map((entry) => ({
    // The quick pick's own filter is off for these: the registry already matched them.
    alwaysShow: true,
    label: `$(package) ${visibleLine(entry.title ?? entry.name)}`,
    // What tells servers apart comes first, where a row that runs out of room does not cut it: where
    // it runs before the publisher, and the publisher only under a title (a name starts with it).
    description: [visibleLine(entry.version), [...new Set(entry.options.map((o) => RUNS[o.runsVia] ?? '?'))].join(', '), ...(entry.title === undefined ? [] : [visibleLine(entry.namespace)])].join(' · '),
    detail: [entry.repositoryUrl ? `$(repo) ${visibleLine(cut(entry.repositoryUrl))}` : '', visibleLine(cut(entry.description))].filter(Boolean).join('  '),
    entry,
  }));
  if (page.dropped.length > 0) {
    rows.push({
      label: `$(warning) ${vscode.l10n.t('{0} entries of this page are not shown', page.dropped.length)}`,
      detail: page.dropped.slice(0, 5).map((d) => `${visibleLine(cut(d.name))}: ${sanitizeLine(cut(d.reason))}`).join('; '),
      alwaysShow: true,
    });
  }
  if (page.nextCursor !== undefined) rows.push({ label: `$(more) ${vscode.l10n.t('Load more...')}`, alwaysShow: true, more: page.nextCursor, description: query ? vscode.l10n.t('more servers matching "{0}"', visibleLine(query)) : undefined });
  return rows;
}

/**
 * Which way to install an entry: each option with what it runs; one with a problem is shown with
 * it and cannot be chosen. An entry with one option that can be installed needs no pick.
 */
export async function pickOption(entry: RegistryEntry, prompts: PromptEvents): Promise<InstallOption | undefined> {
  const installable = entry.options.filter((o) => o.plan || o.bundle);
  if (entry.options.length === 1 && installable.length === 1) return installable[0];
  type OptionRow = vscode.QuickPickItem & { option?: InstallOption };
  const qp = vscode.window.createQuickPick<OptionRow>();
  qp.title = vscode.l10n.t('Install "{0}": how should it run?', visibleLine(entry.title ?? entry.name));
  qp.placeholder = installable.length ? vscode.l10n.t('Each way runs something else: the next step shows exactly what') : vscode.l10n.t('None of its ways to run can be installed safely');
  qp.ignoreFocusOut = true;
  qp.items = entry.options.map((o) =>
    o.plan || o.bundle
      ? { label: `$(play) ${visibleLine(o.label)}`, description: o.bundle ? vscode.l10n.t('{0}: downloaded and checked first', RUNS[o.runsVia]) : RUNS[o.runsVia], option: o }
      : { label: `$(circle-slash) ${visibleLine(o.label)}`, description: vscode.l10n.t('cannot be installed'), detail: sanitizeLine(cut(o.problem ?? '')) },
  );
  return new Promise<InstallOption | undefined>((resolve) => {
    qp.onDidAccept(() => {
      const option = qp.selectedItems[0]?.option;
      if (!option) return; // an option with a problem: it says why, and stays
      resolve(option);
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
    prompts.show(qp);
  }).finally(() => qp.dispose());
}

function cut(text: string): string {
  return text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS)}…` : text;
}
