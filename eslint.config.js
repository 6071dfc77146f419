// @ts-check
/**
 * ESLint 9 flat config (`npm run lint`, part of `npm test`): typescript-eslint's type-aware rules over the server, the
 * SPA, the tests and the scripts (types from tsconfig.json through the project service), React's hooks rules and
 * jsx-a11y's over every TSX file. Formatting is Prettier's (`npm run format`), not ESLint's. Decision 0021.
 */
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['dist/', 'build/', 'data/', 'coverage/', 'reports/', 'test-results/', '.stryker-tmp/', 'public/', 'server/db/migrations/'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The root config files outside tsconfig.json's include get a default project of their own.
        projectService: { allowDefaultProject: ['eslint.config.js', 'stryker.config.mjs', 'scripts/support/strykerSurvivors.mjs'] },
        // import.meta.dirname needs Node 20.11; package.json allows any Node 20.
        tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)),
      },
      globals: { ...globals.node },
    },
    rules: {
      // A `let` read by a closure before its one assignment (server/main.ts's outbox worker) cannot be a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `async` here marks a promise-returning contract (Fastify plugins, fromPromise actors, test doubles of async
      // interfaces): a throw becomes a rejection. A body without `await` is not a fault.
      '@typescript-eslint/require-await': 'off',
      // The TypeScript habit: a leading `_` names what is deliberately unused; `...rest` drops the named fields.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/views/**/*.{ts,tsx}', 'test/model/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.tsx'],
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['eslint.config.js'],
    // eslint-plugin-jsx-a11y ships no types: its configs are `any` here.
    rules: { '@typescript-eslint/no-unsafe-argument': 'off', '@typescript-eslint/no-unsafe-member-access': 'off' },
  },
  {
    files: ['src/views/**/*.{ts,tsx}'],
    // A view renders a snapshot and sends events; its machine makes the calls (architecture.md, "The statechart").
    // The checkout's actor is built here from what this browser stored of an earlier payment, which is no call.
    ignores: ['src/views/checkout/checkoutActor.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/api/*'], allowTypeImports: true, message: 'A view never calls the API: send an event to its machine.' }],
        },
      ],
    },
  },
  {
    files: ['src/views/payment/SandboxCardForm.tsx'],
    // The typed card lives in a ref the gateway reads when the buyer pays; the compiler's heuristic takes every
    // function handed a ref-reading closure during render (the gateway's factory, the inputs' props) for a read.
    rules: { 'react-hooks/refs': 'off' },
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    // Tests read untyped answers (inject's `json()`, JSON.parse, XState's Any* snapshots) and check their shape
    // with `expect`; typing each one first would restate the contract the assertion checks.
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
