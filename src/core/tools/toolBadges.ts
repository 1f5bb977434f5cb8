import { effectiveAnnotations, type EffectiveAnnotations, type Hint } from './annotations';
import type { Tool } from '@modelcontextprotocol/client';

/** What a tool may do, worst first: the icon and its color say this at a glance. */
export type ToolRisk = 'destructive' | 'open-world' | 'writes' | 'read-only';

/** One word beside a tool; `assumed` when no trusted declaration backs it (spec default, or hints not trusted). */
export interface Badge {
  readonly word: 'read-only' | 'writes' | 'destructive' | 'idempotent' | 'open-world';
  readonly assumed: boolean;
}

/** The mark after an assumed badge ("destructive?"): the server did not say so, we assume it. */
export const ASSUMED_MARK = '?';
/** Ends the description of a tool whose server's hints are not trusted (its server row says "hints not trusted"). */
export const UNTRUSTED_NOTE = 'untrusted';

/**
 * The badges of a tool: its effect (read-only, writes, or destructive), then idempotent and
 * open-world when they apply. Writes means "changes data but destroys nothing". The one rule
 * for badges: the tree, tooltips, the Call Tool picker, the approval prompt, the output channel,
 * chat and the CLI all show these.
 */
export function toolBadges(a: EffectiveAnnotations): Badge[] {
  const assumed = (...hints: Hint[]) => hints.some((h) => h.source !== 'declared');
  const badges: Badge[] = [];
  if (a.readOnly.value) badges.push({ word: 'read-only', assumed: assumed(a.readOnly) });
  else if (a.destructive.value) badges.push({ word: 'destructive', assumed: assumed(a.destructive) });
  else badges.push({ word: 'writes', assumed: assumed(a.readOnly, a.destructive) });
  if (a.idempotent.value) badges.push({ word: 'idempotent', assumed: assumed(a.idempotent) });
  if (a.openWorld.value) badges.push({ word: 'open-world', assumed: assumed(a.openWorld) });
  return badges;
}

/** The badge words alone, in order (machine-readable output: `--json`). */
export function badgeWords(a: EffectiveAnnotations): string[] {
  return toolBadges(a).map((b) => b.word);
}

/** One badge as text: its word, marked when assumed (`destructive?`). */
export const badgeText = (b: Badge): string => `${b.word}${b.assumed ? ASSUMED_MARK : ''}`;

/** The badges as text (`destructive? · open-world?`, plus a note when hints are not trusted): every surface shows this. */
export function badgeDescription(a: EffectiveAnnotations): string {
  const words = toolBadges(a).map(badgeText);
  if (a.readOnly.source === 'untrusted') words.push(UNTRUSTED_NOTE);
  return words.join(' · ');
}

/**
 * The badges a tree row has room for at the default sidebar width: what the tool does and whether
 * it reaches out. "idempotent" (a comfort, not a risk) and the untrusted note (the server's row
 * says it; each word keeps its "?") are left to the tooltip.
 */
export function rowBadgeDescription(badges: readonly Badge[]): string {
  return badges
    .filter((b) => b.word !== 'idempotent')
    .map(badgeText)
    .join(' · ');
}

/**
 * What a tool of an untrusted server says it does, when that is milder than the worst case it is
 * taken for: "read-only" or "writes" (declared non-destructive). Undefined when its hints are
 * trusted, or when it declares (or leaves to the default) a destructive effect: then the worst case
 * is also its claim. A row shows the claim as not trusted rather than as an assumed "destructive?".
 */
export function untrustedClaim(tool: Pick<Tool, 'annotations'>, a: EffectiveAnnotations): 'read-only' | 'writes' | undefined {
  if (a.readOnly.source !== 'untrusted') return undefined;
  const claimed = effectiveAnnotations(tool, true);
  if (claimed.readOnly.value) return 'read-only';
  return claimed.destructive.value ? undefined : 'writes';
}

/** The risk that colors the icon: destructive beats open-world beats writes beats read-only. */
export function toolRisk(a: EffectiveAnnotations): ToolRisk {
  if (a.destructive.value) return 'destructive';
  if (a.openWorld.value) return 'open-world';
  return a.readOnly.value ? 'read-only' : 'writes';
}

/** What a badge means, in the words of the tooltip. */
export const BADGE_SENTENCE: Readonly<Record<Badge['word'], string>> = {
  'read-only': 'Only reads; changes nothing.',
  writes: 'May change data, but deletes nothing.',
  destructive: 'May change or delete data.',
  idempotent: 'Calling it again with the same arguments has no further effect.',
  'open-world': 'May reach outside this machine (the web, other services).',
};

/** How a hint's source reads in the tooltip. */
export function hintSource(h: Hint): string {
  switch (h.source) {
    case 'declared':
      return 'declared';
    case 'default':
      return 'spec default';
    case 'untrusted':
      return 'assumed: annotations not trusted';
    case 'sandbox':
      return 'closed: sandboxed without network';
  }
}
