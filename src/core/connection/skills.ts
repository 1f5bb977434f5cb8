import type { Client } from '@modelcontextprotocol/client';
import { SKILL_LIMITS, SkillsClient, SkillVerificationError, type Skill, type SkillFile } from '@modelcontextprotocol/client/ext/skills';
import { sameSkillFile, skillFileProblem, skillFileUri, skillUriProblem } from '../connection/skillPaths'; // a leaf, named by its path from src/core (the lazy-leaf lint rule)

/** The most of one skill file the host takes: SEP-2640's limit for a whole skill (SKILL_LIMITS.bytes, 16 MiB). */
export const MAX_SKILL_FILE_BYTES = SKILL_LIMITS.bytes;

/**
 * The mark on every file of a `dynamic` skill, in these words wherever it is shown (the CLI's text
 * and --json): the server lists no size or digest for such files, so nothing was verified.
 */
export const UNVERIFIED_SKILL = 'unverified: this skill is dynamic, so the server lists no size or digest to check its files against';

/** A server's skill as the host shows it before loading it (nothing of it is read yet). */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  /** The URI of its SKILL.md. */
  readonly uri: string;
  /** Its files (URI and size), or `dynamic` when the server does not list them (they cannot be verified). */
  readonly files: readonly { readonly uri: string; readonly size: number }[] | 'dynamic';
}

/** A server's skills (MCP Skills extension, SEP-2640), or why there are none. */
export interface SkillListing {
  /** The server declares the skills extension. */
  readonly supported: boolean;
  readonly skills: readonly SkillSummary[];
  /** Entries the host refused, and why (a bad digest, a repeated URI, a file outside the skill's folder...). */
  readonly invalid: readonly { readonly uri?: string; readonly reason: string }[];
}

/** A file of a skill, read and checked against the server's own listing; or why it was refused. */
export type SkillRead =
  | {
      readonly kind: 'read';
      readonly uri: string;
      /** The text, at most MAX_SKILL_FILE_BYTES of it (see `cut`). */
      readonly text?: string;
      /** Its whole size in bytes. */
      readonly size: number;
      readonly verified: boolean;
      /** UNVERIFIED_SKILL, on every file of a dynamic skill. */
      readonly unverified?: string;
      /** The file was over MAX_SKILL_FILE_BYTES: `text` holds its first `shownBytes` only. */
      readonly cut?: { readonly shownBytes: number; readonly totalBytes: number };
    }
  | {
      readonly kind: 'refused';
      readonly uri: string;
      /** One sentence, starting with what was refused. */
      readonly why: string;
      /** What refused it: the server's listing (size, digest, frontmatter: the SDK), the skill's folder, or the size limit. */
      readonly check: 'listing' | 'folder' | 'size';
    };

/** What the host does with one server's skills; through the SDK's SkillsClient, which verifies every file. */
export interface SkillsAccess {
  list(): Promise<SkillListing>;
  /** Reads `file` (SKILL.md by default) of the skill named `name` (its name or SKILL.md URI): undefined when it has none. */
  read(name: string, file?: string): Promise<SkillRead | undefined>;
}

/**
 * The skills of the server behind `client`. Listing reads no file (a host must not fetch a
 * skill's files before the skill is loaded), and leaves out a skill whose URI or a listed file
 * would leave its folder (skillPaths.ts). Reading asks the server only for a file inside the
 * skill's folder and within MAX_SKILL_FILE_BYTES as listed; checks size, digest and, for SKILL.md,
 * the frontmatter against the listing (a file that fails is refused, never returned); marks every
 * file of a dynamic skill unverified; and cuts a file over the limit, saying so.
 *
 * A module of the heavy bundle (load.ts).
 */
export function skillsOf(client: Client): SkillsAccess {
  const skills = new SkillsClient(client, { skipInvalid: true });
  /** The SDK's listing, less the skills whose paths leave their folder (with why). */
  const checked = async () => {
    const listing = await skills.list();
    const kept: Skill[] = [];
    const refused: { uri: string; name: string; reason: string }[] = [];
    for (const skill of listing.skills) {
      const problem = folderProblem(skill);
      if (problem) refused.push({ uri: skill.uri, name: skill.frontmatter.name, reason: problem });
      else kept.push(skill);
    }
    return { kept, refused, invalid: listing.invalid };
  };
  return {
    async list() {
      if (!skills.supported) return { supported: false, skills: [], invalid: [] };
      const { kept, refused, invalid } = await checked();
      return {
        supported: true,
        skills: kept.map((s) => ({
          name: s.frontmatter.name,
          description: s.frontmatter.description,
          uri: s.uri,
          files: s.resources === 'dynamic' ? 'dynamic' : s.resources.map((r) => ({ uri: r.uri, size: r.size })),
        })),
        invalid: [...invalid.map((i) => ({ uri: i.uri, reason: i.reason })), ...refused.map((r) => ({ uri: r.uri, reason: r.reason }))],
      };
    },
    async read(name, file) {
      if (!skills.supported) return undefined;
      const { kept, refused } = await checked();
      const left = refused.find((s) => s.name === name || s.uri === name);
      if (left) return { kind: 'refused', uri: left.uri, why: `the skill ${left.uri} was left out: ${left.reason}`, check: 'folder' };
      const skill = kept.find((s) => s.frontmatter.name === name || s.uri === name);
      if (!skill) return undefined;
      const target = file === undefined ? { uri: skill.uri } : skillFileUri(skill.uri, file);
      if ('problem' in target) return { kind: 'refused', uri: file ?? skill.uri, why: target.problem, check: 'folder' };
      const listed = skill.resources === 'dynamic' ? undefined : skill.resources.find((r) => sameSkillFile(r.uri, target.uri));
      if (listed && listed.size > MAX_SKILL_FILE_BYTES) {
        return { kind: 'refused', uri: listed.uri, why: `${listed.uri} is listed at ${listed.size} bytes, over the ${mib(MAX_SKILL_FILE_BYTES)} a skill may hold (SEP-2640); it was not read.`, check: 'size' };
      }
      try {
        return readOf(await skills.read(skill, target.uri), skill.resources === 'dynamic');
      } catch (err) {
        if (err instanceof SkillVerificationError) return { kind: 'refused', uri: err.uri, why: err.message, check: 'listing' };
        throw err;
      }
    },
  };
}

/** Why a listed skill would let a read leave its folder: its own URI, or a file it lists. */
function folderProblem(skill: Skill): string | undefined {
  const own = skillUriProblem(skill.uri);
  if (own) return own;
  if (skill.resources === 'dynamic') return undefined;
  for (const resource of skill.resources) {
    if (resource.uri === skill.uri) continue;
    const problem = skillFileProblem(skill.uri, resource.uri);
    if (problem) return `its file ${resource.uri} ${problem}`;
  }
  return undefined;
}

/** What the host shows of a file the SDK read and verified: at most MAX_SKILL_FILE_BYTES, marked when unverifiable. */
function readOf(file: SkillFile, dynamic: boolean): SkillRead {
  const size = file.bytes.length;
  const mark = dynamic ? { unverified: UNVERIFIED_SKILL } : {};
  if (size <= MAX_SKILL_FILE_BYTES || file.text === undefined) return { kind: 'read', uri: file.uri, text: file.text, size, verified: file.verified, ...mark };
  const shown = utf8Prefix(file.bytes, MAX_SKILL_FILE_BYTES);
  return { kind: 'read', uri: file.uri, text: shown.text, size, verified: file.verified, ...mark, cut: { shownBytes: shown.bytes, totalBytes: size } };
}

/** The longest prefix of `bytes` of at most `max` bytes that ends on a character boundary, decoded. */
export function utf8Prefix(bytes: Uint8Array, max: number): { readonly text: string; readonly bytes: number } {
  let end = Math.min(max, bytes.length);
  // Back off continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8'), bytes: end };
}

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;
