import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TS_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

// Plain JavaScript that Node runs: the build, the test runner and its code-server helpers, and the
// UI suites (Playwright). The `globals` package is not a dependency, so the Node globals these
// files use are listed here by hand.
const NODE_SCRIPTS = ['esbuild.mjs', 'eslint.config.mjs', 'scripts/**/*.mjs', 'test/ui/**/*.mjs'];
const NODE_GLOBALS = Object.fromEntries(
  ['process', 'console', 'URL', 'fetch', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Buffer', 'AbortController', 'performance'].map((name) => [name, 'readonly']),
);

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
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: config.files ?? TS_FILES })),
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
    // Callbacks given to Playwright's page.evaluate / waitForFunction run in the browser.
    files: ['test/ui/**/*.mjs'],
    languageOptions: { globals: { document: 'readonly', navigator: 'readonly' } },
  },
  {
    // The core is plain Node: it must never depend on the VS Code API.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and src/cli must not import vscode.' }] }],
    },
  },
);
