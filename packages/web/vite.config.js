// @ts-check
import process from 'node:process';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The lobby serves dist/ at `/` with its API at `/api/*` on the same origin, so the session cookie
// travels with every request and the gateway sees the lobby's Origin. `npm run dev` proxies /api to a
// running lobby (FELT_LOBBY_URL) so the dev server behaves the same way.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      output: {
        // React changes less often than the app: its own chunk stays cached across releases.
        manualChunks: (id) => (/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
      onwarn(warning, warn) {
        // zod's sources carry comments Rollup cannot place; harmless and noisy.
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': process.env.FELT_LOBBY_URL ?? 'http://127.0.0.1:8080' },
  },
});
