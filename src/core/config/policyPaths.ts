import * as fs from 'node:fs';
import * as path from 'node:path';

/** The most a policy or rules file may hold: a bigger one is a problem, not read. */
export const MAX_POLICY_FILE_BYTES = 1024 * 1024;
const MAX_FILE_BYTES = MAX_POLICY_FILE_BYTES;

/**
 * The administrator's policy files: a file users cannot write (`/etc/mcp-tool-host/rules.json`, or
 * `%ProgramData%\mcp-tool-host\rules.json`), and the one `MCP_TOOL_HOST_POLICY_FILE` names. The
 * variable adds a file and never replaces the system's, so it can only tighten. They hold rules,
 * the registry pin and the allowlist of servers.
 */
export function policyFiles(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  const system = platform === 'win32' ? path.win32.join(env.ProgramData ?? 'C:\\ProgramData', 'mcp-tool-host', 'rules.json') : '/etc/mcp-tool-host/rules.json';
  const extra = env.MCP_TOOL_HOST_POLICY_FILE;
  return extra && extra !== system ? [system, extra] : [system];
}

/**
 * The registry URL an administrator's policy file pins (`"registryUrl"` beside `"rules"`), the
 * first file's that has one; `problem` when a policy file that exists cannot be read, since it
 * might pin one. Undefined when none pins it.
 */
export function policyRegistryUrl(files: readonly string[]): { readonly url: string; readonly file: string } | { readonly problem: string } | undefined {
  for (const file of files) {
    let text: string;
    try {
      if (fs.statSync(file).size > MAX_FILE_BYTES) return { problem: `The policy file ${file} is over ${MAX_FILE_BYTES} bytes, so whether it pins a registry cannot be read.` };
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      return { problem: `The policy file ${file} could not be read (${code ?? (err as Error).message}), so whether it pins a registry is not known.` };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { problem: `The policy file ${file} is not valid JSON, so whether it pins a registry is not known.` };
    }
    const pinned = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).registryUrl : undefined;
    if (pinned === undefined) continue;
    if (typeof pinned !== 'string' || pinned === '') return { problem: `The policy file ${file} has a "registryUrl" that is not a URL.` };
    return { url: pinned, file };
  }
  return undefined;
}
