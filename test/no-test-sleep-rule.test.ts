// The lint rule that keeps blind sleeps out of tests (felt/no-test-sleep in eslint.config.js): what
// it reports, what it lets through, and which files it covers.
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { noTestSleep } from '../eslint.config.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});

// The fixtures name the timer functions through these, so this file holds no literal sleep itself
// (what the rule reads is the same text).
const T = 'setTimeout';
const C = 'clearTimeout';

tester.run('felt/no-test-sleep', noTestSleep, {
  valid: [
    // A deadline: the timer rejects the wait for an event; it never stands in for one.
    `await new Promise((resolve, reject) => {
       const timer = ${T}(() => reject(new Error('no answer')), 5_000);
       socket.once('message', (m) => { ${C}(timer); resolve(m); });
     });`,
    // Scheduling work, and a kill after a grace period, are not waits.
    `const timer = ${T}(() => child.kill('SIGKILL'), graceMs);`,
    `${T}(() => void flushQueue(), 10);`,
    // A yield to the event loop (no time involved), and a method named ${T}.
    `await new Promise((r) => setImmediate(r));`,
    `socket.${T}(1_000, () => done(false));`,
    // The sanctioned names for waiting.
    `await pause(250, 'a client backs off before it retries');`,
    `await vi.waitFor(() => expect(got).toHaveLength(1));`,
    // A variable that holds a delay, not a function.
    `const delay = 40;`,
  ],
  invalid: [
    { code: `await new Promise((r) => ${T}(r, 200));`, errors: [{ messageId: 'timer' }] },
    { code: `await new Promise<void>((resolve) => { ${T}(resolve, 50); });`, errors: [{ messageId: 'timer' }] },
    { code: `await new Promise((r) => globalThis.${T}(r, 50));`, errors: [{ messageId: 'timer' }] },
    // Resolving from inside a callback is the same sleep.
    { code: `await new Promise((done) => ${T}(() => done(), 100));`, errors: [{ messageId: 'timer' }] },
    {
      code: `await new Promise((resolve) => ${T}(function () { resolve(null); }, 100));`,
      errors: [{ messageId: 'timer' }],
    },
    // A wake-up that also waits for an event still sleeps when the event is late.
    {
      code: `await new Promise<void>((r) => { waiters.push(r); ${T}(r, 100); });`,
      errors: [{ messageId: 'timer' }],
    },
    // A helper that wraps it is reported twice: as a sleep and by its name.
    {
      code: `const sleep = (ms: number) => new Promise((r) => ${T}(r, ms));`,
      errors: [{ messageId: 'helper' }, { messageId: 'timer' }],
    },
    { code: `const tick = (ms: number) => new Promise((r) => ${T}(r, ms));`, errors: [{ messageId: 'timer' }] },
    {
      code: `async function delay(ms: number) { await waitSomehow(ms); }`,
      errors: [{ messageId: 'helper', data: { name: 'delay' } }],
    },
    { code: `import { ${T} } from 'node:timers/promises';`, errors: [{ messageId: 'timersPromises' }] },
    { code: `import { ${T} as wait } from 'timers/promises';`, errors: [{ messageId: 'timersPromises' }] },
    { code: `const { ${T} } = await import('node:timers/promises');`, errors: [{ messageId: 'timersPromises' }] },
  ],
});

describe('which files felt/no-test-sleep covers', () => {
  const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
  const level = async (file: string): Promise<unknown> => {
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> } | undefined;
    const setting = config?.rules?.['felt/no-test-sleep'];
    return Array.isArray(setting) ? setting[0] : setting;
  };

  it('every test file and test folder, in every package and service', async () => {
    for (const file of [
      'services/table-worker/src/actor/mailbox.test.ts',
      'packages/web/src/ui/render.test.tsx',
      'services/lobby/test/harness.ts',
      'packages/web/test/support/browser.ts',
      'k8s/test/manifests.test.ts',
      'prisma/test/transaction.test.ts',
      'test/harness/table-client.ts',
      'test/money-room-close.test.ts',
    ]) {
      expect(await level(file), file).toBe(2);
    }
  });

  it('not the harness wait helpers, nor scripts and source files', async () => {
    for (const file of ['test/harness/wait.ts', 'scripts/demo.ts', 'services/table-worker/src/actor/mailbox.ts']) {
      expect(await level(file), file).toBeUndefined();
    }
  });
});
