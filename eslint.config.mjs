import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { coreDoors } from './eslint/lazyDoors.mjs';
import { layerRules } from './eslint/layerRules.mjs';

const TS_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

// Plain JavaScript that Node runs: the build, the test runner and its code-server helpers, and the
// UI suites (Playwright). The `globals` package is not a dependency, so the Node globals these
// files use are listed here by hand.
const NODE_SCRIPTS = ['esbuild.mjs', 'eslint.config.mjs', 'eslint/**/*.mjs', 'scripts/**/*.mjs', 'test/ui/**/*.mjs', 'test/conformance/**/*.mjs'];
const NODE_GLOBALS = /** @type {Record<string, 'readonly'>} */ (Object.fromEntries(
  ['process', 'console', 'URL', 'fetch', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Buffer', 'AbortController', 'performance'].map((name) => [name, 'readonly']),
));

// Layers (ARCHITECTURE.md "Layers"): a folder imports only folders below it, so the folders form a
// DAG and no file imports a cycle. Lowest first; folders on one row do not import each other.
// packages/ is the door to the packages a running server needs (the SDK, ajv, RE2, jsonc-parser): every
// folder may load through it. Every folder of src/core is in one row (LAYERED below lints it;
// test/unit/layerRules.test.ts checks the list).
export const CORE_LAYERS = [['packages'], ['render', 'tools', 'transport', 'elicitation'], ['config', 'auth', 'search'], ['install'], ['connection'], ['policy', 'telemetry'], ['calls'], ['offers'], ['chat', 'apps'], ['gateway']];
const coreDir = (/** @type {string} */ folder) => `src/core/${folder}`;
// The VS Code adapter's rooms, one folder a feature, lowest first, the same way. Each room registers
// its part at activation and keeps what it loads later behind its door (later.ts); lazy/ bundles the
// doors and only src/extension.ts uses it: it hands each room the loader, typed by the room's own door.
export const VSCODE_LAYERS = [['shared'], ['config', 'prompts', 'tasks'], ['tree', 'apps', 'auth'], ['calls', 'resources'], ['rules', 'servers', 'chat'], ['approvals', 'install', 'gateway'], ['lazy']];
/**
 * The zones that keep each folder of `layers` to the folders below it.
 * @param {string} base
 * @param {string[][]} layers
 * @param {string} name the list's name here, for the message
 */
const layerZones = (base, layers, name) => layers.flatMap((row, i) =>
  row.map((folder) => ({
    target: `${base}/${folder}`,
    from: [...row.filter((f) => f !== folder), ...layers.slice(i + 1).flat()].map((f) => `${base}/${f}`),
    message: `${base}/${folder} may import only the folders below it (eslint.config.mjs ${name}).`,
  })),
).filter((zone) => zone.from.length > 0);
// A file in a folder of src/core or src/vscode that no row names is a lint error, so a new folder joins a layer;
// in src/vscode every file is in a room (a folder).
const LAYERED = [
  { folder: 'src/core', children: CORE_LAYERS.flat(), message: 'add it to a row of CORE_LAYERS in eslint.config.mjs.' },
  { folder: 'src/vscode', children: VSCODE_LAYERS.flat(), filesInFolders: true, message: 'put it in a room, a folder in a row of VSCODE_LAYERS in eslint.config.mjs.' },
];
const LAYER_ZONES = [
  // events.ts, errors.ts, serverLog.ts: the bottom, used by every folder.
  { target: 'src/core', direct: true, from: CORE_LAYERS.flat().map(coreDir), message: 'The files at the root of src/core are the bottom layer: they import no core folder.' },
  ...layerZones('src/core', CORE_LAYERS, 'CORE_LAYERS'),
  { target: 'src/core', from: ['src/vscode', 'src/cli', 'src/extension.ts'], message: 'src/core is used by the adapters, never the other way.' },
  ...layerZones('src/vscode', VSCODE_LAYERS, 'VSCODE_LAYERS'),
  { target: 'src/vscode', from: ['src/cli'], message: 'The VS Code adapters and the CLI share only src/core.' },
  { target: 'src/cli', from: ['src/vscode'], message: 'The CLI and the VS Code adapters share only src/core.' },
];

// The lazy seam (ARCHITECTURE.md "Limits"): what activation must not load sits behind a door of its
// folder (later.ts, links.ts, jsonc.ts), reached through the folder's load.ts; eslint/lazyDoors.mjs reads
// the doors, and the lists below follow from what each door re-exports. A module a door exports is
// imported elsewhere as a type only. Each door is part of a lazy bundle (esbuild.mjs).
const DOORS = coreDoors(import.meta.dirname);
const exportedTo = (/** @type {string} */ file) => DOORS.filter((d) => d.file === file).flatMap((d) => d.modules);
const coreFile = (/** @type {string} */ m) => `src/core/${m}.ts`;
// dist/core.js, the session runtime, holds the SDK and leaf modules of ours: a module of ours in two
// bundles is two copies, and `instanceof` across the copies fails, so these import no code of ours
// at runtime but each other (skills.ts reads skillPaths.ts, which no door exports).
const LAZY_LEAVES = [...exportedTo('core.js'), 'connection/skillPaths'];
const LAZY_FILES = [...DOORS.filter((d) => d.file === 'core.js' || d.file === 'jsonc.js').map((d) => d.entry), ...LAZY_LEAVES.map(coreFile)];
// The argument-rule engine is a lazy bundle of its own (policy/later.ts, dist/rules.js): outside it and the
// tests, its modules are imported as types only and reached through loadRules(). Besides what the door
// exports, the engine's inner modules.
const RULE_MODULES = [...exportedTo('rules.js'), 'policy/jsonPointer', 'policy/ruleGlobs', 'policy/ruleRegex'];
const RULE_FILES = ['src/core/policy/later.ts', ...RULE_MODULES.map(coreFile)];
// OAuth sign-in is a lazy bundle of its own too (auth/later.ts, dist/auth.js): outside it and the
// tests, these modules are imported as types only and reached through loadAuth(); signInMark.ts tells a SignInError.
const AUTH_MODULES = [...exportedTo('auth.js'), ...['machineProviders', 'oauthProvider', 'serverCredentials', 'loopbackReceiver', 'jwtBearerProvider', 'dpopKeys'].map((m) => `auth/${m}`)];
const AUTH_FILES = ['src/core/auth/later.ts', ...AUTH_MODULES.map(coreFile)];
// Tool search and token counts are a lazy bundle of their own too (search/later.ts, dist/search.js):
// minisearch and gpt-tokenizer's encoding are imported by these modules only, reached through loadSearch().
const SEARCH_MODULES = exportedTo('search.js');
const SEARCH_FILES = ['src/core/search/later.ts', ...SEARCH_MODULES.map(coreFile)];
// Telemetry through OpenTelemetry is a lazy bundle of its own too (telemetry/later.ts, dist/telemetry.js):
// the OpenTelemetry packages are imported by its modules only, reached through loadTelemetry() when telemetry is on.
const TELEMETRY_MODULES = exportedTo('telemetry.js');
const TELEMETRY_FILES = ['src/core/telemetry/later.ts', ...TELEMETRY_MODULES.map(coreFile)];
// The link check is a lazy bundle of its own too (elicitation/links.ts, apps/links.ts; dist/links.js): the
// Public Suffix List (tldts) is imported by its modules only (the links a server may have the user open,
// the origins a tool interface may reach), reached through loadLinks() and loadCsp().
const LINK_MODULES = exportedTo('links.js');
const LINK_FILES = [...DOORS.filter((d) => d.file === 'links.js').map((d) => d.entry), ...LINK_MODULES.map(coreFile)];
// The SDK client of a session and its era clients are a lazy bundle of their own too (connection/sessionRuntime.ts,
// dist/session.js): outside it, imported as types only and reached through loadSession() when a launch builds its client.
const SESSION_MODULES = [...exportedTo('session.js'), ...['sdkClient', 'eraProbe', 'era2025Client', 'era2026Client', 'taskCalls', 'inputRounds', 'callPrompts', 'elicitationRequests', 'toolListing'].map((m) => `connection/${m}`)];
const SESSION_FILES = [...DOORS.filter((d) => d.file === 'session.js').map((d) => d.entry), ...SESSION_MODULES.map(coreFile)];
const baseNames = (/** @type {string[]} */ modules) => modules.map((m) => m.split('/')[1]).join('|');
const LAZY_MESSAGE = 'Load it through its folder\'s door (src/core/<folder>/load.ts: loadSdk, loadJsonc, loadTransport...); import it here only as a type.';
const HEAVY_PATTERNS = [
  { regex: '^(@modelcontextprotocol/client|ajv|ajv-formats|jsonc-parser|re2js)(/|$)', allowTypeImports: true, message: LAZY_MESSAGE },
  { regex: `(^|/)(${baseNames(LAZY_LEAVES)})$`, allowTypeImports: true, message: LAZY_MESSAGE },
  // A door itself: importing it would load what it holds with the importer.
  { regex: `(^|/)core/(${DOORS.map((d) => d.door).join('|')})$|^\\./(${[...new Set(DOORS.map((d) => d.request.slice(2)))].join('|')})$`, allowTypeImports: true, message: LAZY_MESSAGE },
];
// From another core folder a door is `../transport/later` (a room of src/vscode may have a door of that name).
const CORE_DOOR_PATTERN = { regex: `^\\.\\./(${DOORS.map((d) => d.door).join('|')})$`, allowTypeImports: true, message: LAZY_MESSAGE };
const RULE_PATTERN = { regex: `(^|/)(${baseNames(RULE_MODULES)})$`, allowTypeImports: true, message: 'Load the rule engine through loadRules() (src/core/policy/load.ts); import it here only as a type.' };
const TELEMETRY_PATTERN = { regex: `^@opentelemetry/|(^|/)(${baseNames(TELEMETRY_MODULES)})$`, allowTypeImports: true, message: 'Load telemetry through loadTelemetry() (src/core/telemetry/load.ts); import it here only as a type.' };
const SEARCH_PATTERN = { regex: `^(minisearch|gpt-tokenizer)(/|$)|(^|/)(${baseNames(SEARCH_MODULES)})$`, allowTypeImports: true, message: 'Load tool search and token counts through loadSearch() (src/core/search/load.ts); import them here only as types.' };
const LINK_PATTERN = { regex: `^tldts(-core)?(/|$)|(^|/)(${baseNames(LINK_MODULES)})$`, allowTypeImports: true, message: 'Load the link check through loadLinks() (src/core/elicitation/load.ts) or loadCsp() (src/core/apps/load.ts); import it here only as a type.' };
const SESSION_PATTERN = { regex: `(^|/)(${baseNames(SESSION_MODULES)})$`, allowTypeImports: true, message: 'Load the session client through loadSession() (src/core/connection/loadSession.ts); import it here only as a type.' };
const AUTH_PATTERN = { regex: `(^|/)(${baseNames(AUTH_MODULES)})$`, allowTypeImports: true, message: 'Load the sign-in code through loadAuth() (src/core/auth/load.ts); import it here only as a type (isSignInError() tells a SignInError).' };

export default tseslint.config(
  {
    ignores: [
      'dist/', 'dist-vsix/', 'out/', 'node_modules/', '.vscode-test/', 'test-results/',
      // deliberately odd MCP servers (CommonJS, misbehaving on purpose)
      'test/fixtures/',
      // the test-only language model: plain CommonJS loaded by VS Code
      'test/fakelm/',
      '**/*.js', '**/*.cjs',
    ],
  },
  js.configs.recommended,
  // typescript-eslint's configs name no files for the parser and its rules; they are meant for TypeScript only.
  // (Typed loosely by the package for compatibility; they are flat configs.)
  ...(/** @type {import('typescript-eslint').ConfigWithExtends[]} */ (tseslint.configs.recommended)).map((config) => ({ ...config, files: config.files ?? TS_FILES })),
  {
    files: TS_FILES,
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // STYLE.md: state unions keep their helpers in a namespace of the same name.
      '@typescript-eslint/no-namespace': 'off',
    },
  },
  {
    files: NODE_SCRIPTS,
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: NODE_GLOBALS },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // A file URL's pathname keeps its percent-encoding ("My%20Projects"): a checkout under a folder with a
    // space broke every script (issue 30). fileURLToPath decodes it (and knows Windows drive letters).
    files: [...NODE_SCRIPTS, ...TS_FILES],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'MemberExpression[property.name="pathname"][object.type="NewExpression"][object.callee.name="URL"][object.arguments.0.type="MemberExpression"][object.arguments.0.object.type="MetaProperty"]',
        message: 'Use fileURLToPath(import.meta.url) (node:url): a URL pathname keeps %20 and other escapes.',
      }, {
        selector: 'CallExpression[callee.object.name="path"] > MemberExpression[property.name="pathname"]',
        message: 'A URL pathname is not a file path (it keeps %20 and other escapes): use fileURLToPath.',
      }],
    },
  },
  {
    // Callbacks given to Playwright's page.evaluate / waitForFunction run in the browser.
    files: ['test/ui/**/*.mjs'],
    languageOptions: { globals: { document: 'readonly', navigator: 'readonly', getComputedStyle: 'readonly' } },
  },
  {
    // The core is plain Node: it must never depend on the VS Code API.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and src/cli must not import vscode.' }] }],
    },
  },
  {
    // Layers (LAYER_ZONES above; type imports count too) and cycles (runtime imports): eslint/layerRules.mjs.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    plugins: { local: layerRules },
    rules: {
      'local/no-cycle': 'error',
      'local/layers': ['error', { root: import.meta.dirname, zones: LAYER_ZONES, layered: LAYERED }],
    },
  },
  {
    // The rule engine (RULE_MODULES above) loads with dist/rules.js, the sign-in (AUTH_MODULES) with dist/auth.js, not at activation.
    files: ['src/**/*.ts'],
    ignores: [...RULE_FILES, ...AUTH_FILES, ...SEARCH_FILES, ...TELEMETRY_FILES, ...LINK_FILES, ...LAZY_FILES, ...SESSION_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, RULE_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, LINK_PATTERN, SESSION_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // The same in src/core, where another folder's door is named from its folder.
    files: ['src/core/**/*.ts'],
    ignores: [...RULE_FILES, ...AUTH_FILES, ...SEARCH_FILES, ...TELEMETRY_FILES, ...LINK_FILES, ...LAZY_FILES, ...SESSION_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, LINK_PATTERN, SESSION_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // The session client's own files: the heavy packages as types only, and the other lazy bundles.
    files: SESSION_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, LINK_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // The rule engine's own files: the heavy packages and the leaf modules still as types only, and the sign-in.
    files: RULE_FILES.filter((f) => !LAZY_FILES.includes(f)),
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, LINK_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // The sign-in's own files: likewise, and the rule engine.
    files: AUTH_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, SEARCH_PATTERN, LINK_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // Tool search's own files: the heavy packages as types only, and the rule engine and sign-in.
    files: SEARCH_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, AUTH_PATTERN, LINK_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // The link check's own files: the heavy packages as types only, and the other lazy bundles.
    files: LINK_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, TELEMETRY_PATTERN] }],
    },
  },
  {
    // Telemetry's own files: the heavy packages as types only, and the other lazy bundles.
    files: TELEMETRY_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...HEAVY_PATTERNS, CORE_DOOR_PATTERN, RULE_PATTERN, AUTH_PATTERN, SEARCH_PATTERN, LINK_PATTERN, SESSION_PATTERN] }],
    },
  },
  {
    // The session runtime's doors and leaf modules import no code of ours at runtime, but the leaves
    // (by their path from src/core, or from their own folder).
    files: LAZY_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ regex: `^\\.(?!\\./(${LAZY_LEAVES.join('|')})$|/(${baseNames(LAZY_LEAVES)})$)`, allowTypeImports: true, message: 'The session runtime (dist/core.js) holds no code of ours but leaf modules (eslint.config.mjs LAZY_LEAVES).' }],
      }],
    },
  },
);
