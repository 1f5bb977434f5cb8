// Which URIs name a file inside a skill's folder (MCP skills extension, SEP-2640). The SDK's
// SkillsClient checks a listed file against the WHATWG form of its URI but asks the server for the
// URI as listed, and many servers read a skill:// URI as a path: escapes decoded (sometimes twice),
// `\` a separator on Windows, `..` followed. So a URI is inside only when its raw text is: under the
// skill's folder, letter for letter (same scheme and authority), with no segment that is empty,
// `.` or `..`, or holds a slash, a backslash or a control character, however often it is decoded.
//
// A lazy leaf (eslint.config.mjs LAZY_LEAVES): skills.ts, in the session runtime, is its only user.

const MANIFEST = '/SKILL.md';
/** Decoding stops after this many rounds (a name encoded deeper is refused). */
const MAX_DECODES = 4;

/** The folder of the skill whose SKILL.md is `skillUri` (no trailing slash), or undefined when it is not a `.../SKILL.md` URI. */
export function skillFolder(skillUri: string): string | undefined {
  return skillUri.endsWith(MANIFEST) && skillUri.length > MANIFEST.length ? skillUri.slice(0, -MANIFEST.length) : undefined;
}

/**
 * Why the skill's own URI would let a read leave its folder (its path holds `..`, an empty
 * segment...), or undefined when it is clean.
 */
export function skillUriProblem(skillUri: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*((\/[^?#]*)?)$/i.exec(skillUri);
  if (!match || !skillFolder(skillUri)) return `${skillUri} is not a URI ending in /SKILL.md`;
  const segments = match[1].split('/').slice(1);
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) return `${skillUri} ${problem}`;
  }
  return undefined;
}

/**
 * Why `uri` is not a file inside the folder of the skill whose SKILL.md is `skillUri`, as the end of
 * a sentence ("is not inside the skill's folder skill://x: it has a ".." segment"), or undefined when
 * it is inside.
 */
export function skillFileProblem(skillUri: string, uri: string): string | undefined {
  const folder = skillFolder(skillUri);
  if (folder === undefined) return `is not in a skill (${skillUri} is not a SKILL.md URI)`;
  const outside = (why: string) => `is not inside the skill's folder ${folder}: ${why}`;
  if (!uri.startsWith(`${folder}/`)) return outside(/^[a-z][a-z0-9+.-]*:/i.test(uri) ? 'it is under another scheme, server or folder' : 'it is not under it');
  const rest = uri.slice(folder.length + 1);
  if (/[?#]/.test(rest)) return outside('it has a query or fragment');
  for (const segment of rest.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return outside(`it ${problem}`);
  }
  return undefined;
}

/**
 * The URI of the file `ref` names in the skill (a path inside its folder, such as
 * `references/FORMS.md`, or a URI under it), or why it names none. Nothing is normalised away:
 * `a/../b` and `./b` are refused, not rewritten, so what is asked of the server is what was checked.
 */
export function skillFileUri(skillUri: string, ref: string): { readonly uri: string } | { readonly problem: string } {
  const folder = skillFolder(skillUri);
  if (folder === undefined) return { problem: `${skillUri} is not a SKILL.md URI` };
  const isUri = /^[a-z][a-z0-9+.-]*:/i.test(ref);
  if (!isUri && ref.startsWith('/')) return { problem: `${ref} is an absolute path; name a file inside the skill, such as references/FORMS.md` };
  const uri = isUri ? ref : `${folder}/${ref}`;
  const problem = skillFileProblem(skillUri, uri);
  return problem ? { problem: `${uri} ${problem}` } : { uri };
}

/** What is wrong with one raw path segment, after each round of decoding ("has a ".." segment"), or undefined. */
function segmentProblem(raw: string): string | undefined {
  let segment = raw;
  for (let round = 0; ; round++) {
    if (segment === '') return 'has an empty segment (//)';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment${round ? ` once decoded (${raw})` : ''}`;
    if (segment.includes('\\')) return `has a backslash${round ? ` once decoded (${raw})` : ''}, which Windows servers read as a separator`;
    if (segment.includes('/')) return `has an encoded slash (${raw})`;
    // A space is fine encoded (`my%20notes.md`), never raw; a control character never.
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(segment) || (round === 0 && /\s/.test(segment))) return `has a control character or a space${round ? ` once decoded (${raw})` : ''}`;
    if (!/%[0-9a-f]{2}/i.test(segment)) return undefined;
    if (round === MAX_DECODES) return `is encoded more than ${MAX_DECODES} times (${raw})`;
    try {
      segment = decodeURIComponent(segment);
    } catch {
      return `has an escape that does not decode (${raw})`;
    }
  }
}

/** Whether two clean URIs of a skill name the same file, however each percent-encodes its names (`Q&A.md`, `Q%26A.md`). */
export function sameSkillFile(a: string, b: string): boolean {
  const spelled = (uri: string) => uri.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  const [x, y] = [spelled(a), spelled(b)];
  return x.length === y.length && x.every((segment, i) => segment === y[i]);
}
