import { feltProject } from '../vitest.shared.ts';

// The k6 test spawns `npm run build:k6` (tsc + esbuild) and runs the TypeScript checker.
export default feltProject('@felt/loadtest', { test: { testTimeout: 60_000, hookTimeout: 120_000 } });
