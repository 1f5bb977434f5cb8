import * as vscode from 'vscode';
import { envEntries, httpSends } from '../../core/config/launchReview';
import type { DevSettings } from '../../core/config/devConfig';
import type { ServerDefinition } from '../../core/config/serverConfig';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

interface Choice extends vscode.QuickPickItem {
  readonly start?: boolean;
}

/** How long after it appears the launch prompt takes an answer: a keystroke meant for something else never answers it. */
const LAUNCH_ARM_MS = 500;

/**
 * The launch prompt of a workspace's server: what will run or be sent, whole, and whether to start
 * it. It starts on "Do not start" and takes no answer in its first LAUNCH_ARM_MS.
 */
export async function askToLaunch(def: ServerDefinition, shownLaunch: string, changed: boolean, prompts: PromptEvents): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Choice>();
  try {
    qp.title = changed
      ? vscode.l10n.t('The workspace changed how server "{0}" starts. Run it?', def.name)
      : vscode.l10n.t('Run server "{0}" defined by this workspace?', def.name);
    qp.ignoreFocusOut = true;
    qp.placeholder = vscode.l10n.t('Start it only if you trust what it runs');
    // What will run, whole: the command line in rows (a row's text is cut at the prompt's width),
    // then where, with what environment, what it sends, and the trust the server gets. The
    // workspace wrote all of it: nothing hidden (visibleLine, sanitizeLine).
    const facts: Choice[] = [...commandRows(visibleLine(shownLaunch)), ...launchFacts(def)].map((label) => ({ label, alwaysShow: true }));
    const doNotStart: Choice = { label: `$(circle-slash) ${vscode.l10n.t('Do not start')}`, start: false };
    qp.items = [
      { label: def.spec.type === 'stdio' ? vscode.l10n.t('It will run') : vscode.l10n.t('It will connect to'), kind: vscode.QuickPickItemKind.Separator },
      ...facts,
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(play) ${vscode.l10n.t('Start server')}`, start: true },
      doNotStart,
    ];
    // Starting a repository's code is a deliberate act, as an approval is: the prompt starts on
    // "Do not start", and nothing typed before it could be read answers it.
    qp.activeItems = [doNotStart];
    const shownAt = performance.now();
    return await new Promise<boolean>((resolve) => {
      qp.onDidAccept(() => {
        const picked = qp.selectedItems[0];
        if (picked?.start === undefined) return; // a row of facts: nothing to do
        if (performance.now() - shownAt < LAUNCH_ARM_MS) return;
        resolve(picked.start);
      });
      qp.onDidHide(() => resolve(false));
      prompts.show(qp, LAUNCH_ARM_MS);
    });
  } finally {
    qp.dispose();
  }
}

/** How much of the command line one row shows: rows are cut beyond the prompt's width. */
const ROW_CHARS = 72;

/** The command line in rows of at most ROW_CHARS, broken at spaces where it can be (a long word is split). */
export function commandRows(line: string): string[] {
  return rows(line, '$(terminal)');
}

/** `text` in rows of at most ROW_CHARS, the first after `icon`, the others indented. */
export function rows(text: string, icon: string): string[] {
  const out: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    for (let piece = word; piece.length > 0; piece = piece.slice(ROW_CHARS)) {
      const part = piece.slice(0, ROW_CHARS);
      if (row && row.length + 1 + part.length > ROW_CHARS) {
        out.push(row);
        row = '';
      }
      row = row ? `${row} ${part}` : part;
    }
  }
  if (row) out.push(row);
  return out.map((r, i) => `${i === 0 ? icon : '$(blank)'} ${r}`);
}

/** Where it runs, with what environment or what it sends, what it replaces, and the trust its tool hints get. */
export function launchFacts(def: ServerDefinition): string[] {
  const spec = def.spec;
  // The trust the server will get: with untrusted hints every call asks.
  // Why they are trusted differs: a user's own server by default, a workspace's only when the user listed it.
  const trusted = def.source === 'user' ? vscode.l10n.t('$(shield) Tool hints trusted, as for every server in your user settings') : vscode.l10n.t('$(shield) Tool hints trusted (your mcpToolHost.trustedWorkspaceServers)');
  const trust = def.trustAnnotations ? trusted : vscode.l10n.t('$(shield) Tool hints not trusted: every call asks first');
  const replaces = def.replaces
    ? [
        vscode.l10n.t('$(warning) It replaces your own server "{0}" of your user settings', def.name),
        ...(def.replaces.sandboxed && !(spec.type === 'stdio' && spec.sandbox) ? [vscode.l10n.t('$(warning) Yours runs in a sandbox; this one does not')] : []),
      ]
    : [];
  if (spec.type !== 'stdio') return [...replaces, ...sendsFacts(def), trust];
  const env = envEntries(spec);
  return [
    ...replaces,
    ...(spec.cwd ? [vscode.l10n.t('$(folder) In {0}', sanitizeLine(spec.cwd))] : []),
    env.length || spec.envFile ? vscode.l10n.t('$(symbol-variable) Environment: yours, and') : vscode.l10n.t('$(symbol-variable) Environment: yours, nothing added'),
    ...env.flatMap((e) =>
      e.value === null
        ? [vscode.l10n.t('$(blank) without {0}', visibleLine(e.name))]
        : rows(`${visibleLine(e.name)}=${visibleLine(e.value)}${e.loadsCode ? ` ${vscode.l10n.t('(changes which code programs load)')}` : ''}`, e.loadsCode ? '$(warning)' : '$(blank)'),
    ),
    ...(spec.envFile ? [vscode.l10n.t('$(blank) the variables of the file {0}', visibleLine(spec.envFile))] : []),
    spec.sandbox ? vscode.l10n.t('$(lock) In a sandbox') : vscode.l10n.t('$(unlock) Not in a sandbox: it can do what you can'),
    ...devFacts(spec.dev),
    trust,
  ];
}

/** Dev mode: the files watched, and the inspector that lets any local process run code in the server. */
function devFacts(dev: DevSettings | undefined): string[] {
  if (!dev) return [];
  return [
    ...(dev.watch.length ? rows(vscode.l10n.t('Dev mode: restarts when its files change: {0}', dev.watch.map(visibleLine).join(', ')), '$(eye)') : []),
    ...(dev.debug?.type === 'node' ? [vscode.l10n.t('$(warning) Dev mode: runs with the Node inspector on 127.0.0.1 and attaches the debugger; while it listens, any process on this machine can run code in the server')] : []),
    ...(dev.debug && dev.debug.type !== 'node' ? [vscode.l10n.t('$(info) Dev mode: debugger type "{0}" is not supported (only "node")', visibleLine(dev.debug.type))] : []),
  ];
}

/** Every header and credential a remote server's launch sends, and where each value comes from. */
function sendsFacts(def: ServerDefinition): string[] {
  if (def.spec.type !== 'http') return [];
  const { sent, files } = httpSends(def.spec);
  const out: string[] = [];
  for (const s of sent) {
    out.push(...rows(`${s.where}: ${visibleLine(s.written)}`, s.envNames.length ? '$(warning)' : '$(key)'));
    if (s.envNames.length) out.push(vscode.l10n.t('$(blank) sends your environment variable {0} to this server', s.envNames.map(visibleLine).join(', ')));
  }
  for (const f of files) out.push(...rows(vscode.l10n.t('{0}: reads the file {1} and sends what it holds', f.where, visibleLine(f.file)), '$(warning)'));
  const o = def.spec.oauth;
  if (o) out.push(vscode.l10n.t('$(key) Signs in with OAuth ({0}){1}', o.grant ?? 'authorization_code', o.clientId ? ` ${vscode.l10n.t('as client {0}', visibleLine(o.clientId))}` : ''));
  if (out.length === 0) out.push(vscode.l10n.t('$(key) Sends no header or credential of its own'));
  return out;
}
