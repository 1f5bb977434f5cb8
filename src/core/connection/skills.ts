import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';

/** A server's skill as the host shows it before loading it (nothing of it is read yet). */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  /** The URI of its SKILL.md. */
  readonly uri: string;
  /** Its files (URI and size), or `dynamic` when the server does not list them. */
  readonly files: readonly { readonly uri: string; readonly size: number }[] | 'dynamic';
}

/** A server's skills (MCP Skills extension, SEP-2640), or why there are none. */
export interface SkillListing {
  /** The server declares the skills extension. */
  readonly supported: boolean;
  readonly skills: readonly SkillSummary[];
  /** Entries the host refused, and why (a bad digest, a repeated URI...). */
  readonly invalid: readonly { readonly uri?: string; readonly reason: string }[];
}

/** A file of a skill, read and checked against the server's own listing; or why it was refused. */
export type SkillRead =
  | { readonly kind: 'read'; readonly uri: string; readonly text?: string; readonly size: number; readonly verified: boolean }
  | { readonly kind: 'refused'; readonly uri: string; readonly why: string };

/** What the host does with one server's skills; through the SDK's SkillsClient, which verifies every file. */
export interface SkillsAccess {
  list(): Promise<SkillListing>;
  /** Reads `file` (SKILL.md by default) of the skill named `name` (its name or SKILL.md URI): undefined when it has none. */
  read(name: string, file?: string): Promise<SkillRead | undefined>;
}

/**
 * The skills of the server behind `client`. Listing reads no file (a host must not fetch a
 * skill's files before the skill is loaded); reading checks size, digest and, for SKILL.md, the
 * frontmatter against the listing, and a file that fails is refused, never returned.
 *
 * A module of the heavy bundle (load.ts).
 */
export function skillsOf(client: Client): SkillsAccess {
  const skills = new SkillsClient(client, { skipInvalid: true });
  const list = async (): Promise<SkillListing> => {
    if (!skills.supported) return { supported: false, skills: [], invalid: [] };
    const listing = await skills.list();
    return {
      supported: true,
      skills: listing.skills.map((s) => ({
        name: s.frontmatter.name,
        description: s.frontmatter.description,
        uri: s.uri,
        files: s.resources === 'dynamic' ? 'dynamic' : s.resources.map((r) => ({ uri: r.uri, size: r.size })),
      })),
      invalid: listing.invalid.map((i) => ({ uri: i.uri, reason: i.reason })),
    };
  };
  return {
    list,
    async read(name, file) {
      if (!skills.supported) return undefined;
      const skill = (await skills.list()).skills.find((s) => s.frontmatter.name === name || s.uri === name);
      if (!skill) return undefined;
      try {
        const read = await skills.read(skill, file);
        return { kind: 'read', uri: read.uri, text: read.text, size: read.bytes.length, verified: read.verified };
      } catch (err) {
        if (err instanceof SkillVerificationError) return { kind: 'refused', uri: err.uri, why: err.message };
        throw err;
      }
    },
  };
}
