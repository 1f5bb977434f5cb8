/**
 * The stderr line that says why a server ended. Usually the last line; but some launchers end with a
 * line that says nothing: npm (npx) with "A complete log of this run can be found in ...", Node with
 * its version after a crash's stack. For those, the line that says why, introduced by who said it:
 * a user who mistyped an npx package learns that it was not found, not where npm's log is.
 */
export function stderrReason(stderr: readonly string[]): string | undefined {
  const lines = stderr.filter((line) => line.trim() !== '');
  if (lines.length === 0) return undefined;
  return npmReason(lines) ?? nodeCrashReason(lines) ?? `Last stderr: ${lines[lines.length - 1]}`;
}

/** An npm error line ("npm error ..." since npm 10, "npm ERR! ..." before), and what follows the prefix. */
const NPM_ERROR = /^npm (?:error|ERR!)(?: (.*))?$/;
/** npm's lines that say nothing of why: where the log is, the error's fields, a bare status, blank lines. */
const NPM_NOISE = /^(?:A complete log of this run|Log files were not able to be saved|code \S+$|errno \S+$|syscall \S+$|path \S|\d{3}\s*$|$)/;
/** The heading npm puts before some lines ("notarget No matching version ...", "network request to ..."). */
const NPM_HEADING = /^(?:notarget|network) (?=\S)/;

/** What the user can do about each of npm's error codes, briefly. */
const NPM_HINTS: Readonly<Record<string, string>> = {
  E404: 'check the package name',
  ETARGET: 'check the version',
  ENOTFOUND: 'npm could not reach the registry: offline, or behind a proxy npm was not told about?',
  EAI_AGAIN: 'npm could not reach the registry: offline, or behind a proxy npm was not told about?',
  ECONNREFUSED: 'npm could not reach the registry: offline, or behind a proxy npm was not told about?',
  ETIMEDOUT: 'npm could not reach the registry: offline, or behind a proxy npm was not told about?',
  EACCES: 'npm was denied a file it needs, such as its cache folder',
  EPERM: 'npm was denied a file it needs, such as its cache folder',
};
const NO_EXECUTABLE = /^could not determine executable to run/;

/** "npm error E404: 404 Not Found - GET https://... (check the package name)", when npm failed. */
function npmReason(lines: readonly string[]): string | undefined {
  const said = lines.map((line) => NPM_ERROR.exec(line)?.[1]?.trim()).filter((body): body is string => body !== undefined);
  if (said.length === 0) return undefined;
  const code = said.map((body) => /^code (\S+)$/.exec(body)?.[1]).find((c) => c !== undefined);
  const why = said.find((body) => !NPM_NOISE.test(body))?.replace(NPM_HEADING, '');
  if (!why && !code) return undefined;
  const hint = (code && NPM_HINTS[code]) ?? (why && NO_EXECUTABLE.test(why) ? "the package names no command to run: is it the server's package?" : undefined);
  return `npm error${code ? ` ${code}` : ''}: ${why ?? '(no reason given)'}${hint ? ` (${hint})` : ''}`;
}

/** Node's last line after an uncaught exception: "Node.js v20.11.0". */
const NODE_VERSION = /^Node\.js v\d+\.\d+\.\d+$/;
/** The line that names the exception: "Error: Cannot find module ...", "TypeError [ERR_X]: ...". */
const NODE_EXCEPTION = /^(?:Uncaught )?(?:[A-Za-z_$][\w$]*)?(?:Error|Exception)\b(?: \[[A-Z0-9_]+\])?:? /;

/** "Node.js: Error: Cannot find module '/x'", when the last line is Node's version after a crash. */
function nodeCrashReason(lines: readonly string[]): string | undefined {
  if (!NODE_VERSION.test(lines[lines.length - 1].trim())) return undefined;
  const exception = lines.find((line) => NODE_EXCEPTION.test(line));
  return exception ? `Node.js: ${exception}` : undefined;
}
