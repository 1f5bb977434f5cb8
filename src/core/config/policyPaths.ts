import * as path from 'node:path';

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
