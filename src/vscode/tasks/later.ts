// What Cancel Task, Show Task Status, Fetch Task Result and Forget Task do, and the rows' "waiting
// for your answer": loaded at first use (dist/forms.js, via lazy/forms.ts).
export { askingFor, cancelTask, fetchTaskResult, forgetTask, showTask } from './taskActions';
