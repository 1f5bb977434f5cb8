import * as os from 'node:os';
import * as path from 'node:path';

/** What `${...}` variables resolve against. */
export interface VariableContext {
  readonly workspaceFolders: readonly { name: string; path: string }[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly userHome?: string;
}

/**
 * Substitutes `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}`, `${env:VAR}` and a
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
      case 'env':
        if (!arg) throw new Error(`${whole} needs a variable name, as in \${env:HOME}.`);
        return ctx.env[arg] ?? '';
      case 'pathSeparator':
        return path.sep;
      default:
        throw new Error(`${whole} is not a supported variable.`);
    }
  });
  return out;
}
