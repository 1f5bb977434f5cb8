// Installing a stranger's server (a registry's entry, a bundle): the flow and the registry's pick
// (dist/forms.js, via lazy/forms.ts): most windows never install.
export { installServer } from './installServer';
export { addServerFromRegistry } from './registryCommand';
export { installBundle } from './bundleCommand';
