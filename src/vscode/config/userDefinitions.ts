import { inputSecretKey } from '../../core/config/launch';
import { parseServers, type ServerDefinition } from '../../core/config/serverConfig';

/**
 * How the user's settings read an entry and where its secrets are kept, for the code that writes
 * servers from a lazy bundle: parsing lives in dist/extension.js (its errors are classes, and a
 * second copy would break `instanceof`), so activation hands these over.
 */
export interface UserDefinitions {
  /** The definition `entry` makes under `name` in user settings, or the problem with it. */
  parse(name: string, entry: unknown): ServerDefinition | string;
  /** The secret storage key the launch reads `${input:<id>}` from. */
  secretKey(def: ServerDefinition, id: string): string;
}

export const userDefinitions: UserDefinitions = {
  parse(name, entry) {
    const parsed = parseServers({ [name]: entry }, 'user');
    return parsed.servers[0] ?? parsed.errors[0]?.message ?? 'its entry is not a server definition';
  },
  secretKey: inputSecretKey,
};
