// Lint: typescript-eslint with type information (through the TypeScript project service), so
// promise misuse and non-exhaustive switches over the event unions are caught before tests run.
// Why this linter: docs/decisions/0002-lint.md.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['**/node_modules/', '.cache/', 'data/', 'coverage/', '**/dist/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // An `async` implementation of a Promise-returning interface method needs no `await`.
      '@typescript-eslint/require-await': 'off',
      // Option and payload interfaces here (and kafkajs') declare callbacks with method syntax;
      // passing them on is safe, as nothing relies on `this`.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // kafkajs stays behind packages/kafka (issue 2), so replacing the client touches one package.
      'no-restricted-imports': ['error', { paths: [{ name: 'kafkajs', message: 'use @imoveis/kafka: kafkajs stays behind packages/kafka.' }] }],
    },
  },
  {
    // The wrapper itself, the benchmark's baseline (a bare kafkajs consumer), and the tests'
    // transactional register (the project never produces in transactions).
    files: ['packages/kafka/**', 'bench/consumidor-nu.ts', 'test/infra/registro-transacional.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // vitest's asymmetric matchers (expect.any, expect.objectContaining…) are typed `any`.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Plain JavaScript config files are not in the TypeScript project.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
