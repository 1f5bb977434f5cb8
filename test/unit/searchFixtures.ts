import type { Tool } from '@modelcontextprotocol/client';
import type { SearchableTool } from '../../src/core/search/toolSearch';

/** A searchable tool with an empty input schema. */
export function searchableTool(server: string, name: string, description: string): SearchableTool {
  const definition: Tool = { name, description, inputSchema: { type: 'object', properties: {} } };
  return { server, tool: name, description, definition };
}

/**
 * A chat server whose tools say "channel" and "workspace" only in some of their descriptions, beside
 * two others: "post it in the workspace" finds post_message, and the chat server as a whole fits best.
 */
export const CHAT_FILES_CALENDAR = [
  searchableTool('chat', 'post_message', 'Post a new message to a channel'),
  searchableTool('chat', 'list_channels', 'List the public channels of the workspace'),
  searchableTool('chat', 'add_reaction', 'Add an emoji to a message'),
  searchableTool('files', 'read_file', 'Read the contents of a file'),
  searchableTool('files', 'move_file', 'Move or rename a file'),
  searchableTool('calendar', 'create_event', 'Create an event on a calendar'),
];
