import { hash } from 'node:crypto';
import { canonicalJson } from '../policy/toolPin';

/** sha256 of the canonical arguments, first 16 hex digits: tells audit records apart without storing what was sent. */
export function argumentsHash(args: unknown): string {
  // The one-shot hash: no Hash object per call (the gateway hashes every call's arguments).
  return hash('sha256', canonicalJson(args), 'hex').slice(0, 16);
}
