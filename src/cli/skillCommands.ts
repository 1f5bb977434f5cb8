import { sanitizeLine, sanitizeText, shownName, visibleJson, visibleLine } from '../core/render/sanitize';
import { ServerState } from '../core/connection/serverState';
import { CliError, Exit, type ExitCode } from './args';
import type { CliHost } from './host';
import type { SkillRead } from '../core/connection/skills';

/**
 * `skills [SERVER]`: the skills each server offers (MCP Skills extension, SEP-2640), named and
 * described; none of their files is read (a skill is read only when it is loaded: `skill`).
 */
export async function listSkills(host: CliHost, json: boolean): Promise<ExitCode> {
  const { pool } = host;
  await Promise.all(pool.connections.map((c) => c.start()));
  const rows = await Promise.all(
    pool.connections.map(async (c) => {
      if (!ServerState.isRunning(c.state)) return { server: c.name, error: c.state.kind === 'error' ? c.state.message : `it is ${c.state.kind}` };
      try {
        return { server: c.name, ...(await c.skills().list()) };
      } catch (err) {
        return { server: c.name, error: `listing skills failed: ${err instanceof Error ? err.message : String(err)}` };
      }
    }),
  );
  if (json) {
    console.log(visibleJson(rows, 2));
  } else {
    for (const r of rows) {
      const server = shownName(r.server);
      if ('error' in r) {
        console.log(`${server}: error: ${sanitizeLine(r.error ?? '')}`);
        continue;
      }
      if (!r.supported) {
        console.log(`${server}: no skills (the server does not offer the skills extension)`);
        continue;
      }
      console.log(`${server}: ${r.skills.length} skill${r.skills.length === 1 ? '' : 's'}`);
      for (const s of r.skills) {
        const files = s.files === 'dynamic' ? 'files not listed: unverified' : `${s.files.length} file${s.files.length === 1 ? '' : 's'}`;
        console.log(`  ${shownName(s.name)}  ${sanitizeLine(s.description)}  (${files})`);
      }
      for (const i of r.invalid) console.error(`${server}: a skill was left out${i.uri ? ` (${visibleLine(i.uri)})` : ''}: ${reasonLine(i.reason)}`);
    }
  }
  return rows.some((r) => 'error' in r) ? Exit.connection : Exit.ok;
}

/**
 * `skill SERVER NAME [FILE]`: loads one skill, which reads its SKILL.md (or FILE, a path in the
 * skill or a URI) and checks it against the server's listing (size, digest, frontmatter). What
 * passes is printed, its terminal escapes removed: a file of a dynamic skill under the unverified
 * mark, one over the size limit cut with a line that says so. What fails, leaves the skill's
 * folder or is listed over the limit is refused and not printed (exit 4).
 */
export async function readSkill(host: CliHost, server: string, name: string, file: string | undefined, json: boolean): Promise<ExitCode> {
  const connection = host.pool.get(server);
  await connection?.start();
  if (!connection || !ServerState.isRunning(connection.state)) {
    throw new CliError(`Server "${shownName(server)}" did not start: ${connection?.state.kind === 'error' ? connection.state.message : 'it is not running'}`, Exit.connection);
  }
  const skills = connection.skills();
  const read = await skills.read(name, file);
  if (!read) {
    const listing = await skills.list();
    const names = listing.skills.map((s) => shownName(s.name)).join(', ') || '(none)';
    throw new CliError(listing.supported ? `Server "${shownName(server)}" has no skill named "${shownName(name)}". Its skills: ${names}.` : `Server "${shownName(server)}" does not offer skills.`);
  }
  if (json) console.log(visibleJson(read, 2));
  else if (read.kind === 'refused') console.error(refusal(read));
  else {
    // The marks travel with the text (stdout), so whatever reads it sees them too.
    const mark = read.unverified ? `[${read.unverified}]\n` : '';
    const cut = read.cut ? `[cut: ${visibleLine(read.uri)} is ${read.cut.totalBytes} bytes; only the first ${read.cut.shownBytes} are shown (SEP-2640 allows a skill 16 MiB)]\n` : '';
    process.stdout.write(`${mark}${sanitizeText(read.text ?? `(${read.size} bytes, not text)`).replace(/\n$/, '')}\n${cut}`);
  }
  return read.kind === 'refused' ? Exit.connection : Exit.ok;
}

/** The line that says why a file was not loaded. */
function refusal(read: Extract<SkillRead, { kind: 'refused' }>): string {
  if (read.check === 'listing') return `refused: ${visibleLine(read.uri)} failed its check against the server's listing, so it was not loaded: ${reasonLine(read.why)}`;
  return `refused: ${reasonLine(read.why)}`;
}

/** A reason on one line, as it is: it quotes the server's names and URIs, so a hidden character in one shows as its escape. */
function reasonLine(text: string): string {
  return visibleLine(text.replace(/[\n\t]+/g, ' '));
}
