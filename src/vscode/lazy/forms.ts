// What the rooms load at first use instead of at activation, each room's door (its later.ts) under
// the room's name: dist/forms.js in the extension (esbuild.mjs). Like chat.ts, it may share only
// stateless modules with dist/extension.js. The rooms never import this folder: src/extension.ts
// hands each the loader, typed by the room's own door.
export * as approvals from '../approvals/later';
export * as apps from '../apps/later';
export * as auth from '../auth/later';
export * as calls from '../calls/later';
export * as install from '../install/later';
export * as prompts from '../prompts/later';
export * as resources from '../resources/later';
export * as rules from '../rules/later';
export * as servers from '../servers/later';
export * as tasks from '../tasks/later';
export * as tree from '../tree/later';
