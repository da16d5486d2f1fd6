import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Env, Hono, MiddlewareHandler } from 'hono';

/** Where `npm run build` leaves the web client (packages/web/dist), seen from this file in dist/. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../packages/web/dist', import.meta.url));

/** Whether `dir` holds a built web client (its index.html). */
export function hasWebClient(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

/**
 * Serves the built web client at `/`. Hashed assets under /assets are cached for a year; the page
 * itself is revalidated on every load so a deploy takes effect at once. Routes registered earlier
 * (the API, health, metrics, OpenAPI) win. Any other GET outside /api and /assets answers the page
 * (the client routes by hash today; the fallback keeps deep links working if that changes). Unknown
 * /api and /assets paths stay 404.
 */
export function mountWebClient<E extends Env>(app: Hono<E>, dir: string): void {
  app.use('/assets/*', labelled('web', withHeaders(serveStatic({ root: dir }), 'public, max-age=31536000, immutable')));
  app.get(
    '/assets/*',
    labelled('unmatched', (c) => c.notFound()),
  );
  app.use('/*', labelled('web', withHeaders(serveStatic({ root: dir }), 'no-cache')));
  app.get(
    '/api/*',
    labelled('unmatched', (c) => c.notFound()),
  );
  app.get('*', labelled('web', withHeaders(serveStatic({ root: dir, path: 'index.html' }), 'no-cache')));
}

const routeLabels = new WeakMap<object, string>();

function labelled<H extends object>(label: string, handler: H): H {
  routeLabels.set(handler, label);
  return handler;
}

/**
 * The request-metrics label of a handler the web mount registered (`web` for files, `unmatched` for
 * its 404s), or undefined for any other handler.
 */
export function webRouteLabel(handler: unknown): string | undefined {
  return typeof handler === 'object' || typeof handler === 'function' ? routeLabels.get(handler as object) : undefined;
}

/**
 * Adds the cache and nosniff headers to a file that was found. (serveStatic's own onFound hook runs
 * after the response is built, too late to add headers.)
 */
function withHeaders(serve: MiddlewareHandler, cacheControl: string): MiddlewareHandler {
  return async (c, next) => {
    let missed = false;
    const res = await serve(c, async () => {
      missed = true;
      await next();
    });
    if (!missed && res instanceof Response) {
      res.headers.set('Cache-Control', cacheControl);
      res.headers.set('X-Content-Type-Options', 'nosniff');
    }
    return res;
  };
}
