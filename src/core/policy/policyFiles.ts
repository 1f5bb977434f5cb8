// Where an administrator's policy lives, and what it says besides rules: modules without state, so
// the install flow (dist/forms.js) reads the registry pin without the rules engine's RuleSet. They
// live with the configuration, whose launches read the allowlist of servers from the same files.
export { MAX_POLICY_FILE_BYTES, policyFiles, policyRegistryUrl } from '../config/policyPaths';
