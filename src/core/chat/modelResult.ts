// A call's outcome as a model gets it within a token budget: a result over the budget becomes its
// head, its size and a handle to read the rest by (readResult.ts).
import type { CallOutcome } from '../calls/callPipeline';
import { toolResultText } from './callReport';
import { cutNote, fitResult, type ResultFit } from './resultBudget';

export interface BudgetedOutcome {
  /** What the model reads. */
  readonly text: string;
  /** The fit of a result (ok or tool error), cut or not. */
  readonly fit?: ResultFit;
  /** The kept whole result, when it was cut and could be kept. */
  readonly handle?: string;
}

export interface ModelBudget {
  readonly budget: number;
  readonly count: (text: string) => number;
  /** Keeps the whole result; its handle, or undefined when it cannot be kept. */
  readonly keep: (pieces: readonly string[]) => string | undefined;
  /** The read tool's name on this surface. */
  readonly readTool: string;
}

/** What the model is told a call did, its result within `budget` tokens (images and audio at a fixed cost each). */
export function budgetedResultText(outcome: CallOutcome, budget: ModelBudget): BudgetedOutcome {
  if (outcome.kind !== 'ok' && outcome.kind !== 'tool-error') return { text: toolResultText(outcome) };
  const fit = fitResult(outcome.result, budget.budget, budget.count);
  const prefix = outcome.kind === 'tool-error' ? 'The tool reported an error:\n' : '';
  const warning = outcome.kind === 'ok' && outcome.outputWarning ? `\n\nWarning from the host: ${outcome.outputWarning} Do not rely on the structured result.` : '';
  if (!fit.cut) return { text: `${prefix}${fit.text.head}${warning}`, fit };
  const handle = budget.keep(outcome.result.pieces ?? [outcome.result.text]);
  return { text: `${prefix}${fit.text.head}\n${cutNote(fit, handle, budget.readTool)}${warning}`, fit, ...(handle && { handle }) };
}
