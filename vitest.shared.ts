import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';

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
      },
    }),
    overrides,
  );
}
