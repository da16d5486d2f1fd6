import { defineProject } from 'vitest/config';
import { SERIAL_TESTS, sourceAliases } from './vitest.shared.ts';

// The CPU-heavy files (SERIAL_TESTS), one at a time once the other projects are done: Vitest runs a
// project of one worker with the default group order after every group.
export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'serial',
    include: SERIAL_TESTS,
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
