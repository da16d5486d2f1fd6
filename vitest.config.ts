import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'services/*', 'proto', 'prisma', 'loadtest', 'k8s', 'test'],
    reporters: ['default', './scripts/vitest/plain-summary.ts'],
    // Integration suites share one machine's Postgres and Redis; each namespaces itself.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
