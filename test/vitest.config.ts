import { feltProject } from '../vitest.shared.ts';

export default feltProject('e2e', { test: { include: ['**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 } });
