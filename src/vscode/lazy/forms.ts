// What asking for a tool's arguments needs (the field-by-field flow, its multi-step input, the
// schema plans behind it, the JSON arguments editor), a server's forms during a call
// (elicitation), the approval prompt, and the commands' bodies that activation does not need (Run
// Doctor, the task commands, Add Server, Import Servers, Open Configuration, Manage and Reset
// Approvals, Sign Out, Show Tool Schema's pick, the Rules and Approvals view with What Would
// Happen), loaded at first use instead of at activation:
// dist/forms.js in the extension (esbuild.mjs). Like chat.ts, it may share only stateless modules
// with dist/extension.js.
export { askArguments } from '../argumentInput';
export { ArgumentEditors } from '../argumentEditor';
export { runDoctor } from '../doctorCommand';
export { QuickPickApprover } from '../approvalPicker';
export { askingFor, cancelTask, fetchTaskResult, forgetTask, showTask } from '../taskActions';
export { vscodeElicitor } from '../elicitationPrompt';
export { addServerCommand } from '../addServerCommand';
export { importServers } from '../importServers';
export { openServerConfiguration } from '../serverLocation';
export { manageApprovals, resetApprovals } from '../approvalActions';
export { signOut } from '../signOutCommand';
// A remote server's sign-in page, its site first (the link prompt's rules).
export { askToSignIn } from '../linkPrompt';
export { pickSchemaTool } from '../schemaPick';
export { RulesTree } from '../rulesTree';
export { runRulesCommand } from '../ruleActions';
// The Tools view's tooltips, built when the user hovers a row.
export { serverTooltip, toolTooltip } from '../tooltips';
// The folder of saved results, held to its budget: loaded at the first save or prune.
export { ResultFolder } from '../../core/render/resultFolder';
// "Open" on a result's saved files (images and other binary content).
export { offerSavedFiles } from '../savedFiles';
// The launch prompt of a workspace's server (launchGate.ts asks it only for a new or changed launch).
export { askToLaunch } from '../launchPrompt';
// A tool's interface (MCP Apps, docs/mcp-apps.md): the webview panel and the host side of its conversation.
export { reopenLastInterface, startInterface } from '../apps/appSessions';
// Sandbox Every Local Server, and the check behind the walkthrough's sandbox steps.
export { markSandboxSupport, sandboxEveryServer } from '../sandboxOffer';
