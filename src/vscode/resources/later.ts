// The resources room's door (ARCHITECTURE.md "Limits"): what its commands load at first use, bundled in dist/forms.js.
export { openResource } from './openResource';
export { openFromTemplate } from './templateFlow';
export { browseResources } from './browseResources';
export { setLogLevel } from './logLevel';
export { groupItem, offerItem } from './offerItems';
