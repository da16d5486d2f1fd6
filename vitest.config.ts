import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'services/*', 'proto', 'prisma', 'loadtest', 'k8s', 'test', 'vitest.serial.config.ts'],
    // Vitest's default on 2 cores is one file at a time, though most integration files mostly wait
    // (on timers, on services they started). Two at a time; the CPU-heavy ones run alone afterwards
    // (the `serial` project, SERIAL_TESTS in vitest.shared.ts). FELT_TEST_WORKERS sets another count.
    maxWorkers: Number(process.env.FELT_TEST_WORKERS ?? 2),
    reporters: ['default', './scripts/vitest/plain-summary.ts'],
    // Integration suites share one machine's Postgres and Redis; each namespaces itself.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
