import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import type { Approver, ApprovalRequest } from '../calls/ports';
import { sanitizeLine, shownArguments, shownName } from '../render/sanitize';

/** How long the person at the client has to answer an approval form. */
export const ANSWER_MS = 10 * 60_000;
/**
 * Arguments longer than this are shown in the form as their head and tail with what was left out
 * between them, counted: the form is read by a person, and a model must not hide the part that
 * matters past what is shown.
 */
export const MAX_ARGS_CHARS = 2_000;
/** Of a cut argument text, the end shown after the gap. */
const TAIL_CHARS = 500;

/** The client's side of an approval: whether it declared elicitation, and the form request itself. */
export interface ClientForms {
  readonly canElicit: boolean;
  elicit(params: ElicitRequestFormParams, options: { timeout: number; signal?: AbortSignal }): Promise<{ action: string; content?: Record<string, unknown> }>;
}

/**
 * `asks: 'client'`: a call that asks is put to the connected client as a form (elicitation), naming
 * the server, the tool, the arguments as they will be sent, and why it asks. Only "accept" with the
 * box ticked allows it, once; a client that did not declare elicitation is never assumed to agree:
 * the call is denied, and the reason says so.
 */
export function clientApprover(forms: ClientForms, signal: AbortSignal | undefined, denials: { reason?: string }): Approver {
  const unasked = unaskedApprover(denials);
  return {
    async approve(request) {
      if (!forms.canElicit) return unasked.approve(request);
      try {
        const answer = await forms.elicit(approvalForm(request), { timeout: ANSWER_MS, signal });
        if (approves(answer)) return 'allow-once';
        denials.reason = notAllowed(answer);
      } catch (err) {
        const why = sanitizeLine(err instanceof Error ? err.message : String(err));
        denials.reason = `Not run: this call needs approval and asking the client failed (${why}).`;
        return { kind: 'refused', why: `asking the client failed (${why})` };
      }
      return 'deny';
    },
  };
}

/** A client that did not declare elicitation is never assumed to agree: denied, and the reason says so. */
export function unaskedApprover(denials: { reason?: string }): Approver {
  return {
    approve(request) {
      denials.reason = `Not run: this call needs approval (${whyText(request)}), and this MCP client cannot be asked (it did not declare elicitation). Nothing was sent; the user can allow such calls with a rule (docs/gateway.md).`;
      return Promise.resolve({ kind: 'refused', why: 'approval required, and the client cannot be asked (no elicitation)' });
    },
  };
}

/** The approval form: the server, the tool, the arguments as they will be sent, why it asks, and one box to tick. */
export function approvalForm(request: ApprovalRequest): ElicitRequestFormParams {
  return { mode: 'form', message: formMessage(request), requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Allow this call once', default: false } }, required: ['approve'] } };
}

/** Only "accept" with the box ticked allows a call. */
export function approves(answer: { action: string; content?: Record<string, unknown> }): boolean {
  return answer.action === 'accept' && answer.content?.approve === true;
}

/** What the model reads when the person did not allow the call. */
export function notAllowed(answer: { action: string }): string {
  return `Not run: the user did not allow this call (${answer.action === 'accept' ? 'left unticked' : sanitizeLine(answer.action)}).`;
}

/** The reasons, then the rule unless it is one of them (an ask rule is both): each said once. */
function whyText(request: ApprovalRequest): string {
  const rule = request.rule && !request.reasons.includes(request.rule) ? request.rule : undefined;
  return [request.reasons.join(' and '), rule].filter((s) => s).map((s) => sanitizeLine(s!)).join('; ');
}

/** The arguments as they will be sent; past MAX_ARGS_CHARS their head and tail, and how much is between. */
export function formArguments(args: Record<string, unknown>): string {
  const json = shownArguments(args);
  if (json.length <= MAX_ARGS_CHARS) return json;
  // A cut never splits a character outside the basic plane (a surrogate pair).
  let head = MAX_ARGS_CHARS - TAIL_CHARS;
  if (/[\ud800-\udbff]/.test(json[head - 1])) head--;
  let tail = json.length - TAIL_CHARS;
  if (/[\udc00-\udfff]/.test(json[tail])) tail++;
  return `${json.slice(0, head)} [... ${(tail - head).toLocaleString('en-US')} characters not shown here: the arguments are ${json.length.toLocaleString('en-US')} characters in all ...] ${json.slice(tail)}`;
}

function formMessage(request: ApprovalRequest): string {
  const changed = request.changed ? `\nThe tool changed since it was approved: ${request.changed.parts.join(', ')}.` : '';
  return [
    `Allow the tool "${shownName(request.tool.name)}" of server "${shownName(request.server)}" to run?`,
    `Why this asks: ${whyText(request)}.${changed}`,
    `Arguments: ${formArguments(request.args)}`,
  ].join('\n');
}
