// What follows `@mcp /prompt`: nothing (pick the server and the prompt), or `SERVER.PROMPT` (or
// `SERVER PROMPT`) and `key=value` arguments, a value with spaces in double quotes.

export type PromptLine =
  | { readonly kind: 'pick' }
  | { readonly kind: 'named'; readonly server: string; readonly prompt: string; readonly args: Readonly<Record<string, string>> }
  | { readonly kind: 'error'; readonly message: string };

export const PROMPT_USAGE = 'Usage: `/prompt` (pick one), or `/prompt SERVER.PROMPT key=value ...` (quote a value with spaces: `key="a b"`).';

/** The words of a line: a double-quoted part keeps its spaces (`key="a b"`, `"my server"`); undefined when a quote is left open. */
function words(text: string): string[] | undefined {
  const out: string[] = [];
  const pattern = /\s*((?:[^\s"]+|"[^"]*")+)/y;
  let rest = text.trim();
  while (rest) {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match) return undefined;
    out.push(match[1].replace(/"([^"]*)"/g, '$1'));
    rest = rest.slice(match[0].length).trim();
  }
  return rest.includes('"') ? undefined : out;
}

/**
 * Reads the line against the server names there are: `SERVER.PROMPT` is split after the longest
 * server name it starts with (a server name may hold dots), `SERVER PROMPT` as two words.
 */
export function parsePromptLine(text: string, servers: readonly string[]): PromptLine {
  if (text.trim() === '') return { kind: 'pick' };
  if ((text.match(/"/g) ?? []).length % 2 === 1) return { kind: 'error', message: `A quote is not closed. ${PROMPT_USAGE}` };
  const parts = words(text);
  if (!parts) return { kind: 'error', message: PROMPT_USAGE };
  const firstPair = parts.findIndex(isPair);
  const names = firstPair < 0 ? parts : parts.slice(0, firstPair);
  const pairs = firstPair < 0 ? [] : parts.slice(firstPair);
  if (!pairs.every(isPair)) return { kind: 'error', message: `Arguments come after the prompt's name, each as key=value. ${PROMPT_USAGE}` };
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at);
    if (Object.hasOwn(args, key)) return { kind: 'error', message: `The argument "${key}" is given twice.` };
    args[key] = pair.slice(at + 1);
  }
  if (names.length === 2) return { kind: 'named', server: names[0], prompt: names[1], args };
  if (names.length !== 1) return { kind: 'error', message: PROMPT_USAGE };
  const server = [...servers].filter((s) => names[0].startsWith(`${s}.`)).sort((a, b) => b.length - a.length)[0];
  if (!server) return { kind: 'error', message: `No server's name starts "${names[0].split('.')[0]}". ${PROMPT_USAGE}` };
  return { kind: 'named', server, prompt: names[0].slice(server.length + 1), args };
}

const isPair = (word: string) => /^[^=\s]+=/.test(word);
