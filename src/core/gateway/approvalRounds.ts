import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, createRequestStateCodec, inputRequired, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { Approver, ApprovalRequest } from '../calls/ports';
import { canonicalJson } from '../policy/toolPin';
import { ANSWER_MS, approvalForm, approves, notAllowed, unaskedApprover } from './clientAsks';

/** The approval form's key among a round's input requests (the client answers under the same key). */
export const APPROVAL_INPUT = 'approve_call';

/** The first protocol revision without server-to-client requests (multi-round-trip input instead). */
const MODERN_ERA = '2026-07-28';

/**
 * The approver of a request of a 2026-07-28 client: an input_required round where the request's
 * envelope declares elicitation, else denied with the reason. Undefined for an earlier era's
 * request (its client is asked by a pushed form).
 */
export function modernApprover(rounds: ApprovalRounds, ctx: ServerContext, denials: { reason?: string }, asked: AskedRound): Approver | undefined {
  const declared = modernDeclared(ctx);
  if (!declared) return undefined;
  return declared.elicitation !== undefined ? rounds.approver(ctx, denials, asked) : unaskedApprover(denials);
}

/** What a 2026-07-28 request's client declared (its envelope's capabilities); undefined for an earlier era's request. */
export function modernDeclared(ctx: ServerContext): Record<string, unknown> | undefined {
  const envelope: Record<string, unknown> = ctx.mcpReq.envelope ?? {};
  const version = envelope[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || version < MODERN_ERA) return undefined;
  const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared) ? (declared as Record<string, unknown>) : {};
}

/** What the gateway's requestState of an approval round says: which call, exactly, was put to the person. */
interface ApprovalState {
  readonly kind: 'approval';
  readonly server: string;
  readonly tool: string;
  /** sha256 of the canonical arguments as they will be sent. */
  readonly args: string;
  /** One answer runs one call: a nonce once answered is spent. */
  readonly nonce: string;
}

/** Where the approver of one request leaves the input_required result the handler answers with instead of a call result. */
export interface AskedRound {
  result?: InputRequiredResult;
}

/**
 * Approvals for 2026-07-28 clients, which take no server-to-client requests: a call that asks is
 * answered `input_required` with the approval form (as a 2025 client gets it pushed) and a
 * requestState naming the exact call, and the client sends the call again with the person's answer
 * and that state. The state goes through the client, so it is signed (HMAC, a random key of this
 * gateway alone), expires with the time a person has to answer, and is bound to the method; the
 * server, tool and arguments in it must be the call's own, and its nonce is spent by the first
 * answer, so it approves one call once and nothing else. A changed, foreign or expired state is
 * refused by the SDK (-32602) before any handler runs.
 */
export class ApprovalRounds {
  private readonly _codec: RequestStateCodec<unknown>;
  /** Seals what a state carries that its client must not read (a server's own requestState, inputRelay.ts). */
  private readonly _sealKey = randomBytes(32);
  /** Nonces answered, with when their state expires (after that the codec refuses it anyway). */
  private readonly _spent = new Map<string, number>();
  private readonly _ttlMs: number;

  constructor(ttlSeconds = ANSWER_MS / 1000) {
    this._ttlMs = ttlSeconds * 1000;
    this._codec = createRequestStateCodec({ key: randomBytes(32), ttlSeconds, bind: (ctx) => ctx.mcpReq.method });
  }

  /** For ServerOptions.requestState.verify: throws on a state this gateway did not mint as it is, or one past its time. */
  readonly verify = (state: string, ctx: ServerContext): Promise<unknown> => this._codec.verify(state, ctx);

  /** The approver of one request of a 2026-07-28 client; the round to answer with lands in `asked`. */
  approver(ctx: ServerContext, denials: { reason?: string }, asked: AskedRound): Approver {
    return {
      approve: async (request) => {
        const state = ctx.mcpReq.requestState<unknown>();
        const answer = ctx.mcpReq.inputResponses?.[APPROVAL_INPUT];
        if (state === undefined || !isFormAnswer(answer)) {
          // The first send (an answer without a state approves nothing), or a state without an answer: ask.
          asked.result = inputRequired({ inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit(approvalForm(request)) }, requestState: await this._codec.mint(stateOf(request), ctx) });
          denials.reason = 'Not run yet: the client was asked to approve this call (input_required).';
          return { kind: 'refused', why: 'the client was asked to approve it (input_required); it runs when sent again with the answer' };
        }
        if (!isApprovalState(state) || !sameCall(state, request)) {
          denials.reason = 'Not run: the approval sent back (requestState) was given for another call (another tool or other arguments). Call again to be asked about this one.';
          return { kind: 'refused', why: 'the approval sent back was given for another call' };
        }
        if (!this._spend(state.nonce)) {
          denials.reason = 'Not run: this approval was already answered, and one answer runs one call. Call again to be asked anew.';
          return { kind: 'refused', why: 'the approval sent back was already spent on a call' };
        }
        if (approves(answer)) return 'allow-once';
        denials.reason = notAllowed(answer);
        return 'deny';
      },
    };
  }

  /** A state of this gateway for `payload`, bound to the request's method, expiring with the time a person has to answer. */
  mint(payload: unknown, ctx: ServerContext): Promise<string> {
    return this._codec.mint(payload, ctx);
  }

  /** True the first time a state's nonce is answered, false ever after (one answer, one request). */
  spend(nonce: string): boolean {
    return this._spend(nonce);
  }

  /** `text` encrypted and authenticated (AES-256-GCM) under this gateway's key: a client holding it reads nothing. */
  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this._sealKey, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** What `seal` sealed; throws on anything else. */
  unseal(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this._sealKey, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }

  private _spend(nonce: string): boolean {
    const now = Date.now();
    for (const [n, until] of this._spent) if (until < now) this._spent.delete(n);
    if (this._spent.has(nonce)) return false;
    this._spent.set(nonce, now + this._ttlMs);
    return true;
  }
}

function stateOf(request: ApprovalRequest): ApprovalState {
  return { kind: 'approval', server: request.server, tool: request.tool.name, args: argsDigest(request.args), nonce: randomUUID() };
}

function sameCall(state: ApprovalState, request: ApprovalRequest): boolean {
  return state.server === request.server && state.tool === request.tool.name && state.args === argsDigest(request.args);
}

/** sha256 of the canonical arguments: a state names the arguments of its call without carrying them. */
export function argsDigest(args: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

function isApprovalState(value: unknown): value is ApprovalState {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return s.kind === 'approval' && typeof s.server === 'string' && typeof s.tool === 'string' && typeof s.args === 'string' && typeof s.nonce === 'string';
}

/** A bare form answer as the client sends it back: `{ action, content? }` (untrusted: only its shape is read). */
function isFormAnswer(value: unknown): value is { action: string; content?: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null) return false;
  const a = value as Record<string, unknown>;
  return typeof a.action === 'string' && (a.content === undefined || (typeof a.content === 'object' && a.content !== null && !Array.isArray(a.content)));
}
