import * as os from 'node:os';
import * as path from 'node:path';

/** What `${...}` variables resolve against. */
export interface VariableContext {
  readonly workspaceFolders: readonly { name: string; path: string }[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly userHome?: string;
  /** Values of `${input:id}` the user gave (secrets: never logged). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** How the user gives an input that has no value (VS Code asks when the server starts; the CLI reads a variable). */
  readonly inputHint?: (id: string) => string;
}

/** The ids of every `${input:id}` in the strings, in order of first use. */
export function inputIds(values: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const v of values) for (const m of v.matchAll(/\$\{input:([^}]+)\}/g)) ids.add(m[1]);
  return [...ids];
}

/**
 * Substitutes `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}`, `${env:VAR}`,
 * `${env:VAR:-default}`, `${input:id}` and a
 * leading `~`. An unknown or unresolvable variable is an error naming it, never an empty string.
 */
export function substitute(value: string, ctx: VariableContext): string {
  const home = ctx.userHome ?? os.homedir();
  let out = value === '~' || value.startsWith('~/') || value.startsWith('~\\') ? home + value.slice(1) : value;
  out = out.replace(/\$\{([^}]*)\}/g, (whole, body: string) => {
    const [kind, arg] = body.includes(':') ? [body.slice(0, body.indexOf(':')), body.slice(body.indexOf(':') + 1)] : [body, undefined];
    switch (kind) {
      case 'userHome':
        return home;
      case 'workspaceFolder': {
        const folder = arg === undefined ? ctx.workspaceFolders[0] : ctx.workspaceFolders.find((f) => f.name === arg);
        if (!folder) throw new Error(`${whole} cannot be resolved: ${arg === undefined ? 'no folder is open' : `no workspace folder is named "${arg}"`}.`);
        return folder.path;
      }
      case 'env': {
        // `${env:VAR:-default}` (Claude Code's `${VAR:-default}`): the default when VAR is unset or empty, as in a shell.
        const cut = arg?.indexOf(':-') ?? -1;
        const name = cut >= 0 ? arg!.slice(0, cut) : arg;
        if (!name) throw new Error(`${whole} needs a variable name, as in \${env:HOME}.`);
        const value = ctx.env[name];
        return cut >= 0 && (value === undefined || value === '') ? arg!.slice(cut + 2) : (value ?? '');
      }
      case 'input': {
        const v = arg ? ctx.inputs?.[arg] : undefined;
        if (v === undefined) throw new Error(`${whole} has no value: ${arg && ctx.inputHint ? ctx.inputHint(arg) : 'it is asked for when the server starts'}.`);
        return v;
      }
      case 'pathSeparator':
        return path.sep;
      default:
        throw new Error(`${whole} is not a supported variable.`);
    }
  });
  return out;
}
