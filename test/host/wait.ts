// Waiting helpers for extension-host tests (the workbench answers asynchronously).
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` (sync or async) every 100 ms until it returns something truthy, or fails naming `what`. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Resolves with the title of the next approval or launch prompt whose title matches `title`, once
 * it takes answers (`McpToolHostApi.onDidShowPrompt`); fails after `ms` naming the prompts that did
 * show. Call it before the action that opens the prompt, and answer the prompt once it resolves.
 */
export function promptShown(api: Pick<McpToolHostApi, 'onDidShowPrompt'>, title: RegExp, ms = 20_000): Promise<string> {
  return nextTitle(api.onDidShowPrompt, title, ms);
}

/** Like promptShown, but the moment the prompt appears, before it takes answers (`onDidOpenPrompt`). */
export function promptOpened(api: Pick<McpToolHostApi, 'onDidOpenPrompt'>, title: RegExp, ms = 20_000): Promise<string> {
  return nextTitle(api.onDidOpenPrompt, title, ms);
}

function nextTitle(event: vscode.Event<string>, title: RegExp, ms: number): Promise<string> {
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out waiting for a prompt titled ${title}; shown meanwhile: ${seen.length ? seen.map((t) => JSON.stringify(t)).join(', ') : 'none'}`));
    }, ms);
    const listener = event((shown) => {
      if (!title.test(shown)) return void seen.push(shown);
      clearTimeout(timer);
      listener.dispose();
      resolve(shown);
    });
  });
}

/** Chooses "Start server" at a workspace server's launch prompt, which starts on "Do not start" (the row below it). */
export async function startAtLaunchPrompt(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/**
 * Allows a destructive call at its approval prompt, which starts on "Deny": up from there to the
 * choice (the items above Deny: Allow once, this tool for the session, always, Edit arguments).
 */
export async function allowDestructive(choice: 'once' | 'session' | 'always'): Promise<void> {
  const up = { once: 4, session: 3, always: 2 }[choice];
  for (let i = 0; i < up; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectPrevious');
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}
