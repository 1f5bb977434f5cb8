// The argument-rule engine, loaded at the first call that has rules to apply: the parser, JSON
// pointers, path readings and the decision. In the extension it is dist/rules.js (esbuild.mjs);
// elsewhere import these modules as types only and reach them through loadRules() (load.ts).
export { parseRules, SCOPE_WORDS } from './argumentRules';
export { decideByRules, ruleWords, bindingKey } from './ruleDecision';
export { testCondition } from './ruleConditions';
export { localPaths, lexicalPaths, foldersAmong } from './rulePaths';
export { proposeRule, buildRule } from './ruleProposal';
