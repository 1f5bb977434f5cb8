/** A parsed `/call SERVER TOOL {json}`; a server or tool name with spaces is written in double quotes. */
export type DirectCall =
  | { readonly kind: 'call'; readonly server: string; readonly tool: string; readonly args: Record<string, unknown> }
  | { readonly kind: 'error'; readonly message: string };

export const CALL_USAGE = 'Usage: `/call SERVER TOOL {"argument": "value"}` (the JSON is optional; quote a name with spaces: `"my server"`).';

/** Reads one word, or a double-quoted name, from the start of `text`. */
function takeName(text: string): { name: string; rest: string } | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('"')) {
    const end = trimmed.indexOf('"', 1);
    if (end < 0) return undefined;
    return { name: trimmed.slice(1, end), rest: trimmed.slice(end + 1) };
  }
  const match = /^(\S+)([\s\S]*)$/.exec(trimmed);
  return match ? { name: match[1], rest: match[2] } : undefined;
}

/** Parses the prompt of `/call`: a server, a tool, and optional JSON object arguments. */
export function parseDirectCall(prompt: string): DirectCall {
  const server = takeName(prompt);
  const tool = server && takeName(server.rest);
  if (!server || !tool || tool.name.startsWith('{')) return { kind: 'error', message: CALL_USAGE };
  const json = tool.rest.trim();
  if (!json) return { kind: 'call', server: server.name, tool: tool.name, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch (err) {
    return { kind: 'error', message: `The arguments are not valid JSON (${err instanceof Error ? err.message : String(err)}). ${CALL_USAGE}` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { kind: 'error', message: `The arguments must be a JSON object. ${CALL_USAGE}` };
  return { kind: 'call', server: server.name, tool: tool.name, args: args as Record<string, unknown> };
}

/** The server names of `/use A B "c d"`; empty means "no preference". */
export function parseUse(prompt: string): string[] {
  const names: string[] = [];
  let rest = prompt;
  for (let next = takeName(rest); next; next = takeName(rest)) {
    names.push(next.name);
    rest = next.rest;
  }
  return names;
}
