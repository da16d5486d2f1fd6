import { feltProject, serialExcluded } from '../vitest.shared.ts';

export default feltProject('e2e', {
  test: {
    include: ['**/*.test.ts'],
    exclude: serialExcluded('test'),
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts its own cluster and harness: a fresh module graph per file (vitest.shared.ts).
    isolate: true,
  },
});
