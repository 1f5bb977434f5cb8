import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline/promises';
import type { ParseError } from 'jsonc-parser';
import { loadJsonc } from '../core/packages/load';
import { CliError } from './args';

// Writing a server into a --config file (add, install-bundle): the file's other content, comments
// included, kept; a file that is not a servers file refused, never overwritten.

/** The config files this writes are small; a larger one is not a servers file. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The config file as it is: its text (undefined when missing), where its servers are kept, and their names. */
export interface ConfigText {
  readonly text: string | undefined;
  readonly key: string;
  readonly names: ReadonlySet<string>;
}

/** Reads --config for writing: a file that is not JSON (with comments) is refused, never overwritten. */
export function readConfigForWrite(file: string): ConfigText {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_CONFIG_BYTES) throw new CliError(`${file} is over ${MAX_CONFIG_BYTES} bytes: not a servers file, nothing was written.`);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: undefined, key: 'servers', names: new Set() };
    throw new CliError(`${file} could not be read (${code ?? (err as Error).message}): nothing was written.`);
  }
  const errors: ParseError[] = [];
  const doc = loadJsonc().parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (text.trim() === '') return { text: undefined, key: 'servers', names: new Set() };
  if (errors.length > 0 || typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new CliError(`${file} is not a JSON object (comments are fine): nothing was written.`);
  const object = doc as Record<string, unknown>;
  // Where the file keeps its servers: ours and VS Code's "servers", Claude's "mcpServers", a settings.json's key.
  const key = 'mcpToolHost.servers' in object ? 'mcpToolHost.servers' : 'mcpServers' in object && !('servers' in object) ? 'mcpServers' : 'servers';
  const servers = object[key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) throw new CliError(`"${key}" in ${file} is not an object: nothing was written.`);
  return { text, key, names: new Set(Object.keys((servers ?? {}) as object)) };
}

/** Writes the entry under `name`, the rest of the file as it was; through a temporary file, so a failed write loses nothing. */
export function writeServer(file: string, config: ConfigText, name: string, entry: Record<string, unknown>): void {
  const jsonc = loadJsonc();
  const text = config.text === undefined ? `${JSON.stringify({ servers: { [name]: entry } }, null, 2)}\n` : jsonc.applyEdits(config.text, jsonc.modify(config.text, [config.key, name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  const folder = path.dirname(path.resolve(file));
  const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(temporary, text, { mode: config.text === undefined ? 0o600 : fs.statSync(file).mode & 0o777 });
    fs.renameSync(temporary, file);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw new CliError(`${file} could not be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): it is as it was.`);
  }
}

/** One line typed on the terminal (stdin), the question on stderr so stdout stays the command's. */
export async function askLine(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** --yes, or y on a terminal; false elsewhere. */
export async function agreed(yes: boolean, question: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) return false;
  return /^y(es)?$/i.test((await askLine(question)).trim());
}
