// The server commands' bodies that activation does not need: Add Server, Import Servers, Open
// Configuration, Run Doctor, a workspace server's launch prompt, Sandbox Every Local Server and the
// check behind the walkthrough's sandbox steps (dist/forms.js, via lazy/forms.ts).
export { addServerCommand } from './addServerCommand';
export { importServers } from './importServers';
export { openServerConfiguration } from './serverLocation';
export { runDoctor } from './doctorCommand';
export { askToLaunch } from './launchPrompt';
export { markSandboxSupport, sandboxEveryServer } from './sandboxOffer';
export { vscodeDevHost } from './devHost';
