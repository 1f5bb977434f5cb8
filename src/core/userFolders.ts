// The user's own folders for what the CLI keeps, where each platform puts them. A folder named in
// the environment by a relative path (or an empty one) is ignored, as the XDG spec says: it would be
// under whatever folder a command runs in (a repository), which could bring files of its own there:
// pins, remembered eras, kept sign-ins, compiled code.
import os from 'node:os';
import path from 'node:path';

/** `dir` when it is an absolute path on `platform`, else undefined. */
export function absoluteFolder(dir: string | undefined, platform: NodeJS.Platform = process.platform): string | undefined {
  return dir && (platform === 'win32' ? path.win32 : path.posix).isAbsolute(dir) ? dir : undefined;
}

/** The state folder: `$XDG_STATE_HOME` (~/.local/state without it), `%LOCALAPPDATA%` on Windows. */
export function userStateFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  if (platform === 'win32') return absoluteFolder(env.LOCALAPPDATA, platform) ?? join(home, 'AppData', 'Local');
  return absoluteFolder(env.XDG_STATE_HOME, platform) ?? join(home, '.local', 'state');
}
