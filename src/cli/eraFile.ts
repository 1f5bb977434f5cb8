import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERA_KEPT_MS, type EraStore } from '../core/connection/eraMemory';
import { makeFolder } from '../core/userFolders';

/** The most launches the file remembers; the oldest go first. */
const MAX_KEPT = 200;

/**
 * The CLI's remembered protocol eras (core/connection/eraMemory.ts): a JSON file next to its
 * audit log, so a 2025-era server that refused the 2026-07-28 probe is not asked again for a day,
 * and one that answered it is given the probe's whole limit. Only what a server's answer showed
 * is written, never an era chosen because the probe went unanswered. Read once; written whole at
 * each change; a damaged or unwritable file is only a lost memory (the probe runs as usual).
 */
export function eraFile(file: string): EraStore {
  let kept: Record<string, { era: 'modern' | 'legacy'; at: number }> = {};
  try {
    const read: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof read === 'object' && read !== null && !Array.isArray(read)) kept = read as typeof kept;
  } catch {
    // none yet, or damaged
  }
  return {
    get: (key) => (Object.hasOwn(kept, key) ? kept[key] : undefined),
    set: (key, value) => {
      const fresh = Object.entries({ ...kept, [key]: value }).filter(([, v]) => typeof v?.at === 'number' && Date.now() - v.at < ERA_KEPT_MS);
      kept = Object.fromEntries(fresh.sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_KEPT));
      try {
        makeFolder(path.dirname(file));
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(kept));
        fs.renameSync(`${file}.tmp`, file);
      } catch {
        // a read-only state folder: the next run probes again
      }
    },
  };
}
