import { fileURLToPath } from 'node:url';
import { configDefaults, defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * In-process tests import workspace libraries from source, so a test run never sees a stale dist/.
 * Processes that tests spawn (gateways, workers) run the built output instead.
 */
export const sourceAliases: Record<string, string> = {
  '@felt/engine': `${root}packages/engine/src/index.ts`,
  '@felt/protocol': `${root}packages/protocol/src/index.ts`,
  '@felt/blind': `${root}packages/blind/src/index.ts`,
  '@felt/client': `${root}packages/client/src/index.ts`,
  '@felt/platform': `${root}packages/platform/src/index.ts`,
  '@felt/proto': `${root}proto/src/index.ts`,
  '@felt/db': `${root}prisma/src/index.ts`,
};

export function feltProject(name: string, overrides: UserWorkspaceConfig = {}): UserWorkspaceConfig {
  return mergeConfig(
    defineProject({
      resolve: { alias: sourceAliases },
      test: {
        name,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        environment: 'node',
        // Projects don't inherit the root config's timeouts; integration suites wait on real services.
        testTimeout: 30_000,
        hookTimeout: 60_000,
        // A worker keeps its module graph from one file to the next instead of importing it again for
        // each: about 90 s less of the suite on this machine (293 s to 206 s for these projects), most
        // of it the import of the same workspace sources file after file. So a test file leaves no state
        // behind: it unstubs the globals it stubs and restores what it spies on, and one that replaces a
        // module does so with vi.doMock after vi.resetModules (eslint forbids the hoisted vi.mock, which
        // a module imported by an earlier file would ignore). The e2e project (test/) stays isolated.
        isolate: false,
      },
    }),
    overrides,
  );
}

/**
 * Test files that keep the machine's cores busy on their own (proof checking, chaos runs, fuzzers, the
 * demo's tables): the `serial` project runs them one at a time after everything else, which runs two
 * files at once (vitest.config.ts). Paths from the repository's root.
 */
export const SERIAL_TESTS = [
  'test/engine-blind.e2e.test.ts',
  'test/chaos.e2e.test.ts',
  'test/chaos-redis-cluster.e2e.test.ts',
  'test/ws-fuzz.e2e.test.ts',
  'test/fault-sentinel.e2e.test.ts',
  'test/sdk-demo.test.ts',
  'services/lobby/test/http-fuzz.test.ts',
];

/** The exclude list of the project in `dir` (a path from the root): the defaults and its serial files. */
export function serialExcluded(dir: string): string[] {
  const own = SERIAL_TESTS.filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1));
  return [...configDefaults.exclude, ...own];
}
