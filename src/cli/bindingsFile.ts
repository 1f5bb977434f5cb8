import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RuleBindingPersistence } from '../core/policy/ruleBindings';
import type { ToolPin } from '../core/policy/toolPin';
import { makeFolder } from '../core/userFolders';

/**
 * The CLI's rule bindings (core/policy/ruleBindings.ts): which tool definition each allow rule
 * allowed, a JSON file beside its audit log, so a tool that changed since a rule allowed it asks
 * in a later run too. Written whole at each change (through a temporary file). A missing or
 * damaged file holds no bindings: the next call an allow rule allows binds the tool as it is then.
 */
export function ruleBindingsFile(file: string): RuleBindingPersistence {
  return {
    load() {
      try {
        const read: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (typeof read !== 'object' || read === null || Array.isArray(read)) return {};
        return Object.fromEntries(Object.entries(read).filter((entry): entry is [string, ToolPin] => isPin(entry[1])));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`rules: warning: ${file} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); allow rules bind to the tools as they are now.`);
        return {};
      }
    },
    save(bindings) {
      try {
        makeFolder(path.dirname(file));
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(bindings));
        fs.renameSync(`${file}.tmp`, file);
      } catch (err) {
        // The call was allowed by a rule either way; only the promise for later runs is lost.
        console.error(`rules: warning: could not save ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); a tool that changes may not be noticed in a later run.`);
      }
    },
  };
}

function isPin(value: unknown): value is ToolPin {
  if (typeof value !== 'object' || value === null) return false;
  const pin = value as Record<string, unknown>;
  return typeof pin.hash === 'string' && typeof pin.definition === 'object' && pin.definition !== null;
}
