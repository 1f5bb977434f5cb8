import type { Tool } from '@modelcontextprotocol/client';
import { planArguments, type ArgumentField } from '../../core/tools/argumentFields';
import { describeProblem, problemField, type SchemaProblem } from '../../core/tools/schemaProblems';
import { argumentsText } from '../../core/tools/argumentSkeleton';
import { initialValues, type ValidateArguments } from '../../core/tools/argumentValues';
import { shownTitle } from '../../core/render/sanitize';
import type { ArgumentEditors } from './argumentEditor';
import { runFieldFlow } from './argumentFlow';

export interface AskArgumentsOptions {
  /** Where "Edit as JSON" opens its editors. */
  readonly editors: ArgumentEditors;
  /** The server, named in the editor's "Call" action. */
  readonly server?: string;
  /** Why the last attempt was refused (the pipeline's problems): the prompts reopen on them. */
  readonly problems?: readonly SchemaProblem[];
}

/**
 * Asks for a tool's arguments; undefined when the user cancels. A tool without properties is
 * called without asking. Scalar fields are asked one by one (`runFieldFlow`), starting from the
 * last arguments used (`previous`) or the defaults; anything the fields cannot express, or the
 * user's "Edit as JSON", opens the JSON editor instead. With `problems` (a refused call) the
 * flow reopens on the field at fault, showing why, with every other value kept.
 */
export async function askArguments(tool: Tool, previous: Record<string, unknown> | undefined, validate: ValidateArguments, options: AskArgumentsOptions): Promise<Record<string, unknown> | undefined> {
  const plan = planArguments(tool.inputSchema);
  let problems = options.problems ?? [];
  if (plan.kind === 'none' && problems.length === 0) return {};
  const toolName = shownTitle(tool);
  let seed = previous;
  if (plan.kind === 'fields') {
    let values = initialValues(plan.fields, previous);
    for (;;) {
      const fix = problems.length ? fieldToFix(plan.fields, problems) : undefined;
      if (problems.length && !fix) break;
      const result = await runFieldFlow({ toolName, fields: plan.fields, values, validate, start: fix?.index, problem: fix?.message, fixOnly: fix !== undefined });
      if (result.kind === 'cancel') return undefined;
      values = result.values;
      if (result.kind === 'json') {
        problems = [];
        break;
      }
      problems = validate(values);
      if (problems.length === 0) return values;
    }
    seed = values;
  }
  return options.editors.edit({
    toolName,
    server: options.server,
    text: argumentsText(tool.inputSchema, seed),
    validate,
    problems,
    reason: plan.kind === 'json' ? plan.reason : undefined,
  });
}

/** The first field (in flow order) that a problem is about; undefined when one is about no field. */
function fieldToFix(fields: readonly ArgumentField[], problems: readonly SchemaProblem[]): { index: number; message: string } | undefined {
  let best: { index: number; message: string } | undefined;
  for (const problem of problems) {
    const index = fields.findIndex((f) => f.name === problemField(problem));
    if (index < 0) return undefined;
    if (!best || index < best.index) best = { index, message: describeProblem(problem) };
  }
  return best;
}
