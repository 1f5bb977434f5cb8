import type { CallOutcome } from '../../core/calls/callPipeline';
import type { TreeNode } from '../tree/toolTree';
import type { CallToolDeps, ToolTarget } from './callFlow';
import type * as Later from './later';

/**
 * `mcpToolHost.callTool`, registered at activation; what it does (callFlow.ts) loads with the first call.
 */
export class CallToolCommand {
  constructor(
    private readonly _deps: CallToolDeps,
    private readonly _later: () => { readonly calls: Pick<typeof Later, 'runCallTool'> },
  ) {}

  run(target?: ToolTarget | TreeNode): Promise<CallOutcome | undefined> {
    return this._later().calls.runCallTool(this._deps, target);
  }
}
