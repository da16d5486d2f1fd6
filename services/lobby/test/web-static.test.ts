import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_DIST, hasWebClient } from '../src/web-static.js';
import { startHarness, type Harness } from './harness.js';

const PAGE = '<!doctype html><title>Felt</title><div id="root"></div>';
const SCRIPT = 'console.log("felt");';

let dist: string;
let h: Harness;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'felt-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), PAGE);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  h = await startHarness({ webDist: dist });
});

afterAll(async () => {
  await h.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the lobby serves the web client', () => {
  it('answers / with the page, revalidated on every load', async () => {
    const res = await h.client().get<string>('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.body).toBe(PAGE);
  });

  it('serves hashed assets as immutable for a year, and an unknown asset is 404', async () => {
    const res = await h.client().get<string>('/assets/index-Ab12Cd34.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.body).toBe(SCRIPT);
    const missing = await h.client().get('/assets/index-gone.js');
    expect(missing.status).toBe(404);
  });

  it('serves other files with no-cache and answers deep links with the page', async () => {
    const icon = await h.client().get<string>('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    const deep = await h.client().get<string>('/table/some-room');
    expect(deep.status).toBe(200);
    expect(deep.body).toBe(PAGE);
  });

  it('keeps the API, health, OpenAPI and the API 404 ahead of the files', async () => {
    const c = h.client();
    expect(await c.get('/healthz')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await c.get('/openapi.json')).status).toBe(200);
    expect(await c.get('/api/config')).toMatchObject({ status: 200, body: { gateway_urls: expect.any(Array) } });
    expect(await c.get('/api/no-such-route')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it('labels request metrics: web files as web, API routes by their route even with the web client mounted', async () => {
    const c = h.client();
    await c.get('/');
    await c.get('/assets/index-Ab12Cd34.js');
    await c.post('/api/auth/signup', { name: 'webmetric', password: 'password-1' });
    await c.get('/api/no-such-route');
    const metrics = await c.ops<string>('/metrics');
    const lines = metrics.body.split('\n').filter((l) => l.startsWith('felt_lobby_http_requests_total{'));
    expect(lines.some((l) => l.includes('route="web"') && l.includes('status="200"'))).toBe(true);
    expect(lines.some((l) => l.includes('route="/api/auth/signup"') && l.includes('status="201"'))).toBe(true);
    expect(lines.some((l) => l.includes('route="unmatched"') && l.includes('status="404"'))).toBe(true);
  });

  it('refuses path traversal out of the web directory', async () => {
    const res = await h.client().get('/assets/..%2f..%2fetc%2fpasswd');
    expect(res.status).toBe(404);
  });

  it('finds the built client where npm run build leaves it', () => {
    // The root build (tsc -b then vite build) runs before npm test.
    expect(hasWebClient(DEFAULT_WEB_DIST)).toBe(true);
  });
});
