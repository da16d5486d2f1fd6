import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sourceAliases } from '../../../vitest.shared.ts';

// `npm run test:browser`: the Chromium suite against a real cluster. Kept out of the default run
// because it boots a cluster and a browser (see docs/web-client.md for its cost).
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { alias: sourceAliases },
  test: {
    name: '@felt/web:browser',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: ['default', fileURLToPath(new URL('../../../scripts/vitest/plain-summary.ts', import.meta.url))],
  },
});
