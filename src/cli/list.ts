import { displayName, effectiveAnnotations } from '../core/tools/annotations';
import { badgeDescription, badgeWords } from '../core/tools/toolBadges';
import { callVerdict, type ApprovalRules } from '../core/policy/approvalPolicy';
import { sanitizeLine, shownName, visibleJson } from '../core/render/sanitize';
import { Exit, type ExitCode } from './args';
import type { CliHost } from './host';

/** What the CLI's pipeline applies: no stored grants, every call judged on its own (`--yes` answers the prompt). */
const CLI_RULES: ApprovalRules = { approveAll: () => false };

/**
 * `servers` and `tools`: starts every selected server and lists its state (and tools). Exit 4
 * when any server did not start or could not list its tools (a failed listing is not an empty one).
 */
export async function listServers(host: CliHost, withTools: boolean, json: boolean): Promise<ExitCode> {
  const { pool } = host;
  await Promise.all(pool.connections.map((c) => c.start()));
  const rows = pool.connections.map((c) => ({
    server: c.name,
    state: c.state.kind,
    error: c.state.kind === 'error' ? c.state.message : c.facts.listingError,
    serverInfo: c.state.kind === 'running' ? { name: c.state.serverName, version: c.state.serverVersion, protocolVersion: c.state.protocolVersion } : undefined,
    toolCount: c.tools.length,
    tools: withTools
      ? c.tools.map((t) => {
          const a = effectiveAnnotations(t, c.definition.trustAnnotations);
          const asksFirst = callVerdict(c.name, t, a, CLI_RULES).kind === 'asks';
          return { name: t.name, title: displayName(t), description: t.description, inputSchema: t.inputSchema, badges: badgeWords(a), badgeText: badgeDescription(a), asksFirst };
        })
      : undefined,
  }));
  if (json) {
    // The same names and text to a parser; on a terminal, hidden and direction characters show as escapes.
    console.log(visibleJson(rows, 2));
  } else {
    for (const r of rows) {
      const state = r.error ? `${r.state === 'running' ? 'running, ' : ''}error: ${sanitizeLine(r.error)}` : r.state;
      console.log(`${shownName(r.server)}: ${state}${withTools || r.error ? '' : `, ${r.toolCount} tool${r.toolCount === 1 ? '' : 's'}`}`);
      // Names as escapes: two that differ only by an invisible character must read differently.
      for (const t of r.tools ?? []) console.log(`  ${shownName(t.name)}  [${t.badgeText}]${t.asksFirst ? '  asks first (--yes to allow)' : ''}`);
    }
  }
  return rows.some((r) => r.error) ? Exit.connection : Exit.ok;
}
