// What the approvals room loads at first use, not at activation (dist/forms.js, via lazy/forms.ts).
export { manageApprovals, resetApprovals } from './approvalActions';
export { QuickPickApprover } from './approvalPicker';
export { readWorkspaceLockfile } from '../../core/policy/lockfileFile';
export { driftOfTool } from '../../core/policy/toolLock';
