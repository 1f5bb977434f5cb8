import type { Tool } from '@modelcontextprotocol/client';
import type { EffectiveAnnotations } from '../tools/annotations';

/** Which surface asked for the call. */
export type CallOrigin = 'tree' | 'palette' | 'chat' | 'cli' | 'api';

export interface ApprovalRequest {
  readonly server: string;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly annotations: EffectiveAnnotations;
  readonly reasons: readonly string[];
  readonly origin: CallOrigin;
}

export type ApprovalDecision = 'allow-once' | 'deny';

/** Asks the user (quick-pick, TTY prompt, or a scripted answer in tests). Escape means deny. */
export interface Approver {
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
}

export interface CallHeader {
  readonly callId: string;
  readonly server: string;
  readonly tool: string;
  readonly origin: CallOrigin;
  readonly args: Record<string, unknown>;
  readonly startedAt: Date;
}

/** Where a call's story goes as it happens (the output channel, a terminal, a chat response). */
export interface CallSink {
  begin(header: CallHeader): void;
  line(callId: string, text: string): void;
  progress(callId: string, progress: { progress: number; total?: number; message?: string }): void;
  end(callId: string, summary: string): void;
}
