import { configDefaults } from 'vitest/config';
import { feltProject } from '../../vitest.shared.ts';

// The default run covers the pure UI logic and server-rendered components; the Chromium suite in
// test/ runs only through `npm run test:browser` (test/vitest.browser.config.ts).
export default feltProject('@felt/web', {
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['src/**/*.test.tsx'],
    exclude: [...configDefaults.exclude, 'test/**'],
  },
});
