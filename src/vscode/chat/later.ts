// What `@mcp` needs once asked something (the tool loop, slash commands, chat markdown), the
// bodies of the hosted language-model tools and of Run Prompt...: loaded at the first request (dist/chat.js, via lazy/chat.ts).
export { createChatHandler } from './chatHandler';
export { callTool, readResultTool, searchTool } from './lmTools';
export { readResourceTool } from './lmResourceTool';
export { runPromptCommand } from './promptCommands';
