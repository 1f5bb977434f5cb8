import type { Tool } from '@modelcontextprotocol/client';
import type { EffectiveAnnotations, Hint } from '../tools/annotations';

/**
 * The name a resource read goes by where a call's name would (approval prompts, grants, rules,
 * the audit log): the method itself. A tool's name cannot hold a "/", so no tool shares it.
 */
export const READ_TOOL_NAME = 'resources/read';

/**
 * A resource read the model asked for, as the approve stage sees a call: a tool named
 * `resources/read` whose one argument is the URI, so rules (`uri` conditions), grants ("always
 * allow resources/read") and the approver treat it as they treat a call of that server.
 */
export const READ_TOOL: Tool = {
  name: READ_TOOL_NAME,
  title: 'Read a resource',
  description: 'Reads a resource of the server (resources/read) for the model.',
  inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
};

const hint = (value: boolean, source: Hint['source']): Hint => ({ value, source });

/**
 * A read changes nothing (the protocol says so, not the server), so it is read-only and never
 * destructive; what it brings is as open-world as any call's by default (a resource can hold
 * anything the server fetched), unless the user trusts the server's annotations.
 */
export function readAnnotations(trusted: boolean): EffectiveAnnotations {
  return {
    readOnly: hint(true, 'declared'),
    destructive: hint(false, 'declared'),
    idempotent: hint(true, 'declared'),
    openWorld: trusted ? hint(false, 'declared') : hint(true, 'default'),
  };
}
