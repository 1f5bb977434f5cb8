// The Tools view's tooltips, built when the user first hovers a row (dist/forms.js, via lazy/forms.ts).
export { serverTooltip, toolTooltip } from './tooltips';
