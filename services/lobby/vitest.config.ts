import { feltProject, serialExcluded } from '../../vitest.shared.ts';

// Projects don't inherit the root config's timeouts; these suites wait on real Postgres and Redis
// and spawn the built service.
export default feltProject('@felt/lobby', {
  test: { exclude: serialExcluded('services/lobby'), testTimeout: 60_000, hookTimeout: 60_000 },
});
