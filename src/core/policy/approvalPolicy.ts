import type { EffectiveAnnotations } from '../tools/annotations';

export type ApprovalNeed =
  | { readonly kind: 'none' }
  | { readonly kind: 'required'; readonly reasons: readonly string[] };

/**
 * Whether a call needs the user's approval before anything is sent: when the tool is
 * effectively destructive (and not read-only) or reaches the open world, or when the user asked
 * to approve every call.
 */
export function approvalNeed(annotations: EffectiveAnnotations, options: { approveAll?: boolean } = {}): ApprovalNeed {
  const reasons: string[] = [];
  if (annotations.destructive.value && !annotations.readOnly.value) reasons.push('may change or delete data (destructive)');
  if (annotations.openWorld.value) reasons.push('may reach the outside world (open-world)');
  if (reasons.length === 0 && options.approveAll) reasons.push('every call needs approval (setting mcpToolHost.approveAllCalls)');
  return reasons.length > 0 ? { kind: 'required', reasons } : { kind: 'none' };
}
