// State-changing requests were once protected by SameSite=Lax alone, the lobby sent no
// Content-Security-Policy, and a badly encoded session cookie made every request a 500.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_DIST, hasWebClient } from '../src/web-static.js';
import { capturedLogger, expectError, startHarness, uniqueName, type Harness } from './harness.js';

let h: Harness;
let logs: ReturnType<typeof capturedLogger>;

beforeAll(async () => {
  logs = capturedLogger('info');
  h = await startHarness({ logger: logs.logger, allowedOrigins: ['https://felt.example.org'] });
});

afterAll(async () => {
  await h.close();
});

const EVIL = 'https://evil.example';

describe('CSRF: state-changing /api requests from other origins', () => {
  it('refuses a foreign Origin with 403 origin_not_allowed on every method, changing nothing', async () => {
    const user = await h.user();
    const room = (await user.post<{ session_id: string; code: string }>('/api/rooms', { config: {} })).body;
    const before = await h.snapshot();
    const name = uniqueName('csrf');
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/auth/signup', { name, password: 'password-1' }],
      ['POST', '/api/auth/login', { name: user.name, password: 'password-1' }],
      ['POST', '/api/rooms', { config: {} }],
      ['POST', '/api/rooms/join', { code: room.code, buy_in: 100 }],
      ['POST', `/api/rooms/${room.session_id}/leave`, undefined],
      ['DELETE', `/api/rooms/${room.session_id}`, undefined],
      ['POST', '/api/auth/logout', undefined],
      ['POST', '/api/auth/logout-all', undefined],
    ];
    for (const [method, path, body] of attempts) {
      expectError(await user.req(method, path, body, { origin: EVIL }), 403, 'origin_not_allowed');
      // A browser that sends no Origin but says cross-site is refused too.
      expectError(await user.req(method, path, body, { 'sec-fetch-site': 'cross-site' }), 403, 'origin_not_allowed');
      expectError(await user.req(method, path, body, { origin: 'null' }), 403, 'origin_not_allowed');
    }
    expect(await h.snapshot()).toEqual(before);
    expect(await h.db.prisma.user.count({ where: { name } })).toBe(0);
    // Still signed in: the refused logouts did nothing.
    expect((await user.get('/api/me')).status).toBe(200);
  });

  it("accepts the lobby's own origin, allowed origins, same-origin fetches, and clients that send neither header", async () => {
    const c = h.client();
    const signUp = (headers: Record<string, string>) =>
      c.req('POST', '/api/auth/signup', { name: uniqueName('ok'), password: 'password-1' }, headers);
    // app.request's URLs are on http://localhost.
    expect((await signUp({ origin: 'http://localhost', host: 'localhost' })).status).toBe(201);
    expect((await signUp({ origin: 'https://felt.example.org' })).status).toBe(201);
    // Behind a proxy that rewrites Host, the browser's Sec-Fetch-Site still says same-origin.
    expect((await signUp({ origin: 'https://felt.example.net', 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    expect((await signUp({})).status).toBe(201);
    // Reads are never refused for their Origin.
    expect((await c.req('GET', '/api/config', undefined, { origin: EVIL })).status).toBe(200);
  });
});

describe('security headers', () => {
  it('sends a CSP with frame-ancestors none and the gateways in connect-src, and nosniff, on every response', async () => {
    const user = await h.user();
    for (const res of [
      await h.client().get('/'),
      await h.client().get('/api/config'),
      await user.get('/api/rooms'),
      await h.client().get('/api/me'),
      await h.client().get('/no/such/route'),
      await h.client().req('POST', '/api/rooms/join', '{"code":', { 'content-type': 'application/json' }),
    ]) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:8081 ws:\/\/127\.0\.0\.1:8082(;|$)/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it("allows the plain home page's inline style by its hash and nothing else inline", async () => {
    const res = await h.client().get<string>('/');
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(res.headers.get('content-security-policy')).toContain(`style-src 'self' 'sha256-${hash}'`);
    expect(res.body).not.toMatch(/<script/);
  });

  it('adds HSTS when the cookie is Secure (served over HTTPS)', async () => {
    const secure = await startHarness({ cookieSecure: true });
    try {
      const res = await secure.client().get('/api/config');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await secure.close();
    }
  });

  // `npm test` builds the web client first; a bare vitest run without it has nothing to check.
  it.skipIf(!hasWebClient(DEFAULT_WEB_DIST))('fits the built web client: everything it loads is allowed', async () => {
    const web = await startHarness({ webDist: DEFAULT_WEB_DIST });
    try {
      const res = await web.client().get<string>('/');
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      const html = readFileSync(join(DEFAULT_WEB_DIST, 'index.html'), 'utf8');
      // No inline script or style the policy would block.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style/);
      expect(html).not.toMatch(/\sstyle=/);
      // Scripts, styles and preloads from the lobby itself; the icon a data: URL (img-src data:).
      for (const [, attr, url] of html.matchAll(/\b(src|href)="([^"]+)"/g)) {
        if (url!.startsWith('data:')) expect(csp).toContain("img-src 'self' data:");
        else expect(url, `${attr}=${url}`).toMatch(/^\/(?!\/)/);
      }
      for (const [, url] of html.matchAll(/\b(?:src|href)="(\/assets\/[^"]+)"/g)) {
        expect((await web.client().get(url!)).status).toBe(200);
      }
    } finally {
      await web.close();
    }
  });
});

describe('the session cookie', () => {
  it('reads a badly encoded cookie as signed out: 401, not 500, and no error logged', async () => {
    for (const value of ['%E0%A4%A', '%', 'abc%ZZ', '%C3%28']) {
      const res = await h.client().req('GET', '/api/me', undefined, { cookie: `felt_session=${value}` });
      expectError(res, 401, 'unauthenticated');
      const post = await h.client().req('POST', '/api/rooms', { config: {} }, { cookie: `x=1; felt_session=${value}` });
      expectError(post, 401, 'unauthenticated');
    }
    expect(logs.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
