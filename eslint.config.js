// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const deepImport = {
  group: ['@felt/*/src', '@felt/*/src/**', '@felt/*/dist', '@felt/*/dist/**'],
  message: 'Import a workspace package through its public entry (@felt/<name>), never its src/ or dist/.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'proto/src/gen/**',
      'prisma/src/generated/**',
      '**/*.d.ts',
      'packages/*/bin/**',
      'loadtest/build/**',
      'loadtest/k6/**',
      'artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true },
      ],
      'no-restricted-imports': ['error', { patterns: [deepImport] }],
    },
  },
  {
    // The engine is a deterministic state machine: no I/O, no ambient randomness, no ambient clock.
    files: ['packages/engine/src/**/*.ts'],
    ignores: ['packages/engine/src/cli/**', 'packages/engine/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImport,
            {
              group: ['node:*', 'fs', 'path', 'os', 'crypto', 'net', 'http', 'child_process'],
              message: 'The engine imports no Node I/O; inject it.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Inject an Rng instead.' },
        { object: 'Date', property: 'now', message: 'Inject a Clock instead.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'Inject a Clock instead.' },
      ],
    },
  },
  {
    // The table worker's domain knows no ORM: the hands queue's job contracts come from
    // @felt/platform, and only the adapters (and main.ts, which wires them) reach the database.
    files: ['services/table-worker/src/**/*.ts'],
    ignores: [
      'services/table-worker/src/adapters/**',
      'services/table-worker/src/main.ts',
      'services/table-worker/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@felt/db',
              message:
                'The worker domain imports no database package: take job contracts from @felt/platform, and put database access in src/adapters/ behind a port.',
            },
          ],
          patterns: [deepImport],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
