'use strict';
// Stands in for the SDK's door (src/core/packages/later.ts) in dist/cli-launch.js: the early launch's
// checks never need the SDK, ajv or RE2 (a rule's regex does: then this throws, and the early launch
// gives way to the normal order, which loads them). Half a megabyte less to read before the spawn.
throw new Error('The SDK is not part of the early launch.');
