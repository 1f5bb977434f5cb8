import { displayName, effectiveAnnotations } from '../core/tools/annotations';
import { badgeDescription, badgeWords } from '../core/tools/toolBadges';
import { callVerdict, type ApprovalRules } from '../core/policy/approvalPolicy';
import { sanitizeLine, sanitizeText, shownName, visibleJson } from '../core/render/sanitize';
import { Exit, type ExitCode } from './args';
import type { CliHost } from './host';

/** What the CLI's pipeline applies: no stored grants, every call judged on its own (`--yes` answers the prompt). */
const CLI_RULES: ApprovalRules = { approveAll: () => false };

/** How far a tool's description is indented under its name. */
const DESCRIPTION_INDENT = '      ';
/** The longest description line shown when stdout is not a terminal (a pipe, a log, a test). */
const PLAIN_WIDTH = 100;

/**
 * The first line of a tool's description as `tools` shows it: sanitised (a server's text must not
 * drive the terminal), cut to the terminal's width (100 characters elsewhere) where a word ends.
 * The whole description is in `tools --json`.
 */
export function descriptionLine(description: string | undefined, width: number): string {
  const first = sanitizeText(description ?? '').trim().split('\n')[0].trim();
  if (first.length <= width) return first;
  const cut = first.slice(0, width - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > width / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * `servers` and `tools`: starts every selected server (or `only.server`) and lists its state (and
 * tools). Exit 4 when any server did not start or could not list its tools (a failed listing is not
 * an empty one). `only.jsonLines`: the JSON on one line (a session's output).
 */
export async function listServers(host: CliHost, withTools: boolean, json: boolean, only: { server?: string; jsonLines?: boolean } = {}): Promise<ExitCode> {
  const connections = host.pool.connections.filter((c) => only.server === undefined || c.name === only.server);
  await Promise.all(connections.map((c) => c.start()));
  const rows = connections.map((c) => ({
    server: c.name,
    state: c.state.kind,
    error: c.state.kind === 'error' ? c.state.message : c.facts.listingError,
    serverInfo: c.state.kind === 'running' ? { name: c.state.serverName, version: c.state.serverVersion, protocolVersion: c.state.protocolVersion } : undefined,
    toolCount: c.tools.length,
    tools: withTools
      ? c.tools.map((t) => {
          const a = effectiveAnnotations(t, c.definition.trustAnnotations);
          const asksFirst = callVerdict(c.name, t, a, CLI_RULES).kind === 'asks';
          // Declared annotations and _meta as sent (an interface, ui.resourceUri, is in _meta); badges are the effective ones.
          return { name: t.name, title: displayName(t), description: t.description, inputSchema: t.inputSchema, annotations: t.annotations, _meta: t._meta, badges: badgeWords(a), badgeText: badgeDescription(a), asksFirst };
        })
      : undefined,
  }));
  if (json) {
    // The same names and text to a parser; on a terminal, hidden and direction characters show as escapes.
    console.log(visibleJson(rows, only.jsonLines ? undefined : 2));
  } else {
    const width = Math.max(40, process.stdout.isTTY ? process.stdout.columns - DESCRIPTION_INDENT.length : PLAIN_WIDTH);
    for (const r of rows) {
      const state = r.error ? `${r.state === 'running' ? 'running, ' : ''}error: ${sanitizeLine(r.error)}` : r.state;
      console.log(`${shownName(r.server)}: ${state}${withTools || r.error ? '' : `, ${r.toolCount} tool${r.toolCount === 1 ? '' : 's'}`}`);
      // Names as escapes: two that differ only by an invisible character must read differently.
      for (const t of r.tools ?? []) {
        console.log(`  ${shownName(t.name)}  [${t.badgeText}]${t.asksFirst ? '  asks first (--yes to allow)' : ''}`);
        const said = descriptionLine(t.description, width);
        if (said) console.log(`${DESCRIPTION_INDENT}${said}`);
      }
    }
  }
  return rows.some((r) => r.error) ? Exit.connection : Exit.ok;
}
