// What a call loads at first use, not at activation (dist/forms.js, via lazy/forms.ts): the
// argument prompts (field flow, multi-step input, schema plans), the JSON arguments editor,
// Show Tool Schema's pick, "Open" on saved files, and the folder of saved results.
export { askArguments } from './argumentInput';
export { runCallTool } from './callFlow';
export { ArgumentEditors } from './argumentEditor';
export { pickSchemaTool } from './schemaPick';
export { offerSavedFiles } from './savedFiles';
// Held to its budget: loaded at the first save or prune.
export { ResultFolder } from '../../core/render/resultFolder';
