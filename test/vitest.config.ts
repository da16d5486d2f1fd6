import { feltProject, serialExcluded } from '../vitest.shared.ts';

export default feltProject('e2e', {
  test: { include: ['**/*.test.ts'], exclude: serialExcluded('test'), testTimeout: 120_000, hookTimeout: 180_000 },
});
