// The argument-rule engine, loaded at the first call that has rules to apply: the
// parser, JSON pointers, path readings and the decision. In the extension it is dist/rules.js
// (esbuild.mjs); elsewhere import these modules as types only and reach them through loadRules().
export { parseRules, SCOPE_WORDS } from '../policy/argumentRules';
export { decideByRules, ruleWords, bindingKey } from '../policy/ruleDecision';
export { testCondition } from '../policy/ruleConditions';
export { localPaths, lexicalPaths } from '../policy/rulePaths';
export { proposeRule, buildRule } from '../policy/ruleProposal';
