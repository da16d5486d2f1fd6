import { feltProject } from '../vitest.shared.ts';

// Projects don't inherit the root config's timeouts; these suites wait on real Postgres and spawn
// processes, so they need more than vitest's 5 s default.
export default feltProject('@felt/db', { test: { testTimeout: 60_000, hookTimeout: 60_000 } });
