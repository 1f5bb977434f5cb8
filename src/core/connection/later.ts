// What only a session that a server answered uses: raw answers, stderr reasons, parameter headers,
// task sessions and the skills extension (SEP-2640). Reach it through loadConnection() (load.ts);
// elsewhere import these modules as types only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { answerHold, keepRawAnswers, rawAnswer } from './rawAnswers';
export { stderrReason } from './stderrReason';
export { paramHeaderValues, scanParamHeaders } from './paramHeaders';
export { declaresTasksExtension, followTask, openTaskSession, withoutEnvelope } from './taskSession';
export { skillsOf } from './skills';
export { DevWatch, devNotes } from './devWatch';
export { DevFolderWatch } from './devFolderWatch';
export { debugging } from './devDebugger';
