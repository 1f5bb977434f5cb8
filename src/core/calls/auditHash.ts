import { createHash } from 'node:crypto';
import { canonicalJson } from '../policy/toolPin';

/** sha256 of the canonical arguments, first 16 hex digits: tells audit records apart without storing what was sent. */
export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex').slice(0, 16);
}
