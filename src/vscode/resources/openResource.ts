import * as vscode from 'vscode';
import type { ReadOutcome } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import { contentOf } from './resourceContent';
import type { ResourceDeps, ResourceTarget } from './resourceDeps';
import { baseMime, fileNameFor, languageOf, PREVIEWED_IMAGES, resourceUri } from './resourceUri';

/** How a resource was shown: in a read-only text editor, the image preview, saved to a file, or not at all. */
export type OpenedAs = { readonly kind: 'text' | 'image'; readonly uri: vscode.Uri } | { readonly kind: 'saved'; readonly file: vscode.Uri } | { readonly kind: 'not-opened'; readonly why: string };

/**
 * Reads a resource and shows it by what it is: text in a read-only editor with the language of
 * its mime type, an image in VS Code's image preview, anything else offered to be saved (never
 * opened by another program). All of it under our scheme (resourceUri.ts), never the server's URI.
 * `saveTo`, a `vscode.Uri` a script or test passes, is where bytes VS Code cannot show are saved
 * without asking; a command link's arguments are plain JSON and never make one.
 */
export async function openResource(deps: ResourceDeps, target: ResourceTarget, saveTo?: unknown): Promise<OpenedAs> {
  const shown = shownName(target.uri);
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading {0} from {1}…', shown, shownName(target.server)), cancellable: true },
    (_progress, token): Promise<ReadOutcome> => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return deps.offers.resources().read({ server: target.server, uri: target.uri, origin: 'tree', signal: abort.signal });
    },
  );
  if (outcome.kind !== 'ok') return notOpened(vscode.l10n.t('Could not read {0} from {1}: {2}', shown, shownName(target.server), sanitizeLine(outcome.message)));
  const first = outcome.parts[0];
  if (!first) return notOpened(vscode.l10n.t('{0} of {1} has no content.', shown, shownName(target.server)));
  const mimeType = baseMime(first.mimeType ?? target.mimeType);
  const content = await contentOf(outcome);
  if (outcome.parts.every((p) => p.kind === 'text')) {
    const uri = resourceUri(target, fileNameFor(target.name, target.uri, mimeType ?? 'text/plain'));
    deps.fs.prime(uri, content);
    let document = await vscode.workspace.openTextDocument(uri);
    const language = languageOf(mimeType);
    if (language && document.languageId !== language) document = await vscode.languages.setTextDocumentLanguage(document, language).then((d) => d, () => document);
    await vscode.window.showTextDocument(document, { preview: true });
    return { kind: 'text', uri };
  }
  if (mimeType && PREVIEWED_IMAGES.has(mimeType)) {
    const uri = resourceUri(target, fileNameFor(target.name, target.uri, mimeType));
    deps.fs.prime(uri, content);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'imagePreview.previewEditor', { preview: true });
    return { kind: 'image', uri };
  }
  return saveBinary(target, content, mimeType, saveTo instanceof vscode.Uri ? saveTo : undefined);
}

/** Bytes VS Code cannot show: offered to be saved where the user picks (or `saveTo`), never opened. */
async function saveBinary(target: ResourceTarget, content: Uint8Array, mimeType: string | undefined, saveTo: vscode.Uri | undefined): Promise<OpenedAs> {
  const file = saveTo ?? (await askWhereToSave(target, content, mimeType));
  if (!file) return { kind: 'not-opened', why: 'not saved' };
  await vscode.workspace.fs.writeFile(file, content);
  void vscode.window.showInformationMessage(vscode.l10n.t('Saved {0} ({1} bytes).', file.fsPath, content.length));
  return { kind: 'saved', file };
}

/** The user's answer to "Save it to a file?" and the Save dialog's file. */
async function askWhereToSave(target: ResourceTarget, content: Uint8Array, mimeType: string | undefined): Promise<vscode.Uri | undefined> {
  const save = vscode.l10n.t('Save As...');
  const what = mimeType ? sanitizeLine(mimeType) : vscode.l10n.t('unknown type');
  const answer = await vscode.window.showInformationMessage(vscode.l10n.t('{0} of {1} is binary ({2}, {3} bytes): VS Code cannot show it. Save it to a file?', shownName(target.uri), shownName(target.server), what, content.length), save);
  if (answer !== save) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = fileNameFor(target.name, target.uri, undefined);
  return vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, title: vscode.l10n.t('Save the resource as') });
}

function notOpened(why: string): OpenedAs {
  void vscode.window.showErrorMessage(why);
  return { kind: 'not-opened', why };
}
