// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const deepImport = {
  group: ['@felt/*/src', '@felt/*/src/**', '@felt/*/dist', '@felt/*/dist/**'],
  message: 'Import a workspace package through its public entry (@felt/<name>), never its src/ or dist/.',
};

const TIMERS_PROMISES = new Set(['timers/promises', 'node:timers/promises']);
const SLEEP_HELPER = /^(sleep|delay)$/i;
const GLOBALS = new Set(['globalThis', 'global', 'window']);

/**
 * `felt/no-test-sleep`: a test waits for the thing it needs (an event, a message, a barrier's answer,
 * a fake clock moved by hand), never for an amount of time that usually suffices. It reports a
 * timer whose callback resolves the promise it sits in (`new Promise((r) => setTimeout(r, ms))`,
 * with or without a wrapper), `timers/promises`, and helpers named sleep or delay. A timer that
 * rejects (a deadline) or schedules work is not a wait. A delay that is part of a scenario (a
 * back-off, a fault injected mid-request) is test/harness/wait.ts's `pause(ms, why)`, the one file
 * the rule skips.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const noTestSleep = {
  meta: {
    type: 'problem',
    docs: { description: 'Tests wait for events, not for time' },
    schema: [],
    messages: {
      timer:
        'A blind sleep: wait for the event itself (vi.waitFor, the harness waitFor/until, a barrier) or use fake timers; a delay that is part of the scenario is pause(ms, why) from test/harness/wait.ts.',
      timersPromises:
        'timers/promises in a test is a sleep: wait for the event itself (vi.waitFor, the harness waitFor/until, a barrier) or use fake timers.',
      helper:
        'A helper named {{name}} in a test is a sleep: wait for the event itself (vi.waitFor, the harness waitFor/until, a barrier) or use fake timers.',
    },
  },
  create(context) {
    const { sourceCode } = context;

    /** @param {import('estree').Node} node */
    const isSetTimeout = (node) =>
      (node.type === 'Identifier' && node.name === 'setTimeout') ||
      (node.type === 'MemberExpression' &&
        !node.computed &&
        node.object.type === 'Identifier' &&
        GLOBALS.has(node.object.name) &&
        node.property.type === 'Identifier' &&
        node.property.name === 'setTimeout');

    /**
     * Whether `id` names the first parameter (resolve) of a `new Promise(executor)`.
     * @param {import('estree').Identifier} id
     */
    const isPromiseResolve = (id) => {
      /** @type {import('eslint').Scope.Scope | null} */
      let scope = sourceCode.getScope(id);
      for (; scope; scope = scope.upper) {
        const variable = scope.set.get(id.name);
        if (!variable) continue;
        const def = variable.defs[0];
        if (def?.type !== 'Parameter') return false;
        const fn = /** @type {import('estree').Function & { parent?: import('estree').Node }} */ (def.node);
        const param = fn.params[0];
        const parent = fn.parent;
        return (
          param?.type === 'Identifier' &&
          param.name === id.name &&
          parent?.type === 'NewExpression' &&
          parent.callee.type === 'Identifier' &&
          parent.callee.name === 'Promise' &&
          parent.arguments[0] === fn
        );
      }
      return false;
    };

    /**
     * Whether a call in `node` (at any depth) calls a promise's resolve.
     * @param {import('estree').Node} node
     * @returns {boolean}
     */
    const callsResolve = (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && isPromiseResolve(node.callee)) {
        return true;
      }
      for (const key of sourceCode.visitorKeys[node.type] ?? []) {
        /** @type {unknown} */
        const child = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (node))[key];
        for (const c of Array.isArray(child) ? child : [child]) {
          if (c && typeof c === 'object' && 'type' in c && callsResolve(/** @type {import('estree').Node} */ (c))) {
            return true;
          }
        }
      }
      return false;
    };

    /** @param {string} name @param {import('estree').Node} node */
    const helper = (name, node) => {
      if (SLEEP_HELPER.test(name)) context.report({ node, messageId: 'helper', data: { name } });
    };

    return {
      CallExpression(node) {
        const callback = node.arguments[0];
        if (!isSetTimeout(node.callee) || !callback) return;
        const waits =
          callback.type === 'Identifier'
            ? isPromiseResolve(callback)
            : (callback.type === 'ArrowFunctionExpression' || callback.type === 'FunctionExpression') &&
              callsResolve(callback.body);
        if (waits) context.report({ node, messageId: 'timer' });
      },
      ImportDeclaration(node) {
        if (TIMERS_PROMISES.has(String(node.source.value))) context.report({ node, messageId: 'timersPromises' });
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && TIMERS_PROMISES.has(String(node.source.value))) {
          context.report({ node, messageId: 'timersPromises' });
        }
      },
      FunctionDeclaration(node) {
        if (node.id) helper(node.id.name, node);
      },
      VariableDeclarator(node) {
        const init = node.init;
        if (
          node.id.type === 'Identifier' &&
          (init?.type === 'ArrowFunctionExpression' || init?.type === 'FunctionExpression')
        ) {
          helper(node.id.name, node);
        }
      },
    };
  },
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
    // @felt/blind runs in the browser, in Node and in the worker: no Node module, no ambient clock;
    // randomness is @noble/hashes' randomBytes (Web Crypto) or an injected Rng.
    files: ['packages/blind/src/**/*.ts'],
    ignores: ['packages/blind/src/**/*.test.ts', 'packages/blind/src/**/*.bench.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // Bare names as `paths`: a pattern 'crypto' would also match its own `./crypto/` folder.
          paths: ['fs', 'path', 'os', 'crypto', 'net', 'http', 'child_process'].map((name) => ({
            name,
            message: '@felt/blind runs in the browser too; it imports no Node module.',
          })),
          patterns: [
            deepImport,
            { group: ['node:*'], message: '@felt/blind runs in the browser too; it imports no Node module.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use randomBytes or an injected Rng.' },
        { object: 'Date', property: 'now', message: 'Take the time as an argument.' },
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
    // Test workers keep their modules from one file to the next (vitest.shared.ts, isolate: false), so
    // a hoisted vi.mock is ignored wherever an earlier file imported the module already.
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'mock',
          message: 'Modules stay loaded between test files: use vi.resetModules() then vi.doMock() and import after.',
        },
      ],
    },
  },
  {
    // Tests wait for events, not for time (the rule above). test/harness/wait.ts holds the two
    // sanctioned timers: the polling inside waitFor, and pause() for a delay a scenario needs.
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'test/**/*.ts',
      '*/test/**/*.ts',
      '*/test/**/*.tsx',
      'packages/*/test/**/*.ts',
      'packages/*/test/**/*.tsx',
      'services/*/test/**/*.ts',
    ],
    ignores: ['test/harness/wait.ts'],
    plugins: { felt: { rules: { 'no-test-sleep': noTestSleep } } },
    rules: { 'felt/no-test-sleep': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
