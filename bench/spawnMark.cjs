'use strict';
// Preloaded (--require) into the CLI and the raw client by case 14: at the first process spawned,
// appends the time since this process started (performance.now(), ms) to the file SPAWN_MARK names.
// Only in those two (the servers they start inherit NODE_OPTIONS too).
if (process.env.SPAWN_MARK && /(cli\.js|raw-cold-client\.cjs)$/.test(process.argv[1] ?? '')) {
  const cp = require('node:child_process');
  const spawn = cp.spawn;
  let marked = false;
  cp.spawn = function (...args) {
    if (!marked) {
      marked = true;
      require('node:fs').appendFileSync(process.env.SPAWN_MARK, `${performance.now().toFixed(1)}\n`);
    }
    return spawn.apply(this, args);
  };
}
