import { hash } from 'node:crypto';
import { canonicalJson } from '../policy/toolPin';
import type { AuditRecord, CallOrigin } from './ports';

/** sha256 of the canonical arguments, first 16 hex digits: tells audit records apart without storing what was sent. */
export function argumentsHash(args: unknown): string {
  // The one-shot hash: no Hash object per call (the gateway hashes every call's arguments).
  return hash('sha256', canonicalJson(args), 'hex').slice(0, 16);
}

/**
 * A call's audit record whose arguments are hashed only when it is read or written: a gateway's log
 * writes its lines after the answer went out (batchedAuditLog.ts). A class, not an object literal
 * with a getter: such a literal is built by a runtime call at every call (~2 µs of a gateway's call).
 */
export class CallAuditRecord implements AuditRecord {
  constructor(
    readonly time: string,
    readonly callId: string,
    readonly origin: CallOrigin,
    readonly server: string,
    readonly tool: string,
    private readonly _sentArgs: unknown,
    readonly decision: string,
    readonly durationMs: number | undefined,
    readonly outcome: string,
  ) {}

  get argsHash(): string {
    return argumentsHash(this._sentArgs);
  }

  /** The record as it is written: its fields in the log's order, the arguments only as their hash. */
  toJSON(): AuditRecord {
    return { time: this.time, callId: this.callId, origin: this.origin, server: this.server, tool: this.tool, argsHash: this.argsHash, decision: this.decision, durationMs: this.durationMs, outcome: this.outcome };
  }
}
