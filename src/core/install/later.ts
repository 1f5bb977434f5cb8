// Finding and installing servers (a registry's entries, bundles) as InstallPlans (installPlan.ts):
// reach it through loadInstall() (load.ts); elsewhere import these modules as types only. In the
// extension it is a lazy bundle of its own (dist/install.js, esbuild.mjs): most windows never install.
export { installInputId } from './inputIds';
export { readBundle, type BundleInstall } from './bundle';
export { BundleError } from './bundleErrors';
export { signatureLine } from './bundlePlan';
export { newRegistryClient, checkRegistryUrl, RegistryError } from './registryClient';
export { fillEntry } from './fillEntry';
export { downloadBundle } from './registryBundle';
export { registryNameRuns } from './registryAllowlist';
