// The Rules and Approvals view's rows and commands, What Would Happen among them: loaded when the
// view is first shown or a command first runs (dist/forms.js, via lazy/forms.ts).
export { RulesTree } from './rulesTree';
export { runRulesCommand } from './ruleActions';
