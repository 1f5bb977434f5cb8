// What asking for a tool's arguments needs (the field-by-field flow, its multi-step input, the
// schema plans behind it) and a server's forms during a call (elicitation), loaded at first use
// instead of at activation:
// dist/forms.js in the extension (esbuild.mjs). Like chat.ts, it may share only stateless modules
// with dist/extension.js.
export { askArguments } from '../argumentInput';
export { vscodeElicitor } from '../elicitationPrompt';
