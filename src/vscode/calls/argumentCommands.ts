// The arguments editor's commands: registered at activation (src/extension.ts), while the editor
// itself (argumentEditor.ts) loads with the first call that asks for arguments (dist/forms.js).

/** Calls the tool with the arguments in the active arguments editor (editor title, CodeLens, status bar); bound to `ArgumentEditors.run`. */
export const RUN_ARGUMENTS_COMMAND = 'mcpToolHost.runArgumentsEditor';
/** Closes an arguments editor without calling; bound to `ArgumentEditors.cancel`. */
export const CANCEL_ARGUMENTS_COMMAND = 'mcpToolHost.cancelArgumentsEditor';
