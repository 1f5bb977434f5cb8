// The Tools view's tooltips, built when the user first hovers a row (dist/forms.js, via lazy/forms.ts).
export { serverTooltip, toolTooltip } from './tooltips';
// In a folder not trusted yet: the names of the servers it defines, and the view's sentence about them.
export { waitingMessage, waitingServers } from './waitingServers';
