// What asking for a tool's arguments needs (the field-by-field flow, its multi-step input, the
// schema plans behind it), loaded at the first call that has arguments instead of at activation:
// dist/forms.js in the extension (esbuild.mjs). Like chat.ts, it may share only stateless modules
// with dist/extension.js.
export { askArguments } from '../argumentInput';
