import { ledgerTotals } from '@felt/db';
import { signSessionToken, verifySessionToken, redisKeys } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, startHarness, uniqueName, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

function cookieAttributes(header: string | null): Record<string, string | true> {
  const parts = (header ?? '').split(';').map((p) => p.trim());
  return Object.fromEntries(
    parts.slice(1).map((p): [string, string | true] => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p.toLowerCase(), true] : [p.slice(0, eq).toLowerCase(), p.slice(eq + 1)];
    }),
  );
}

describe('sign-up', () => {
  it('creates the user, grants the sign-up chips as a ledger transaction and signs in', async () => {
    const c = h.client();
    const name = uniqueName('Alice');
    const res = await c.post<{ user: { id: string; name: string }; wallet: number; expires_at: string }>(
      '/api/auth/signup',
      { name, password: 'correct horse' },
    );
    expect(res.status).toBe(201);
    expect(res.body.user.name).toBe(name);
    expect(res.body.wallet).toBe(10_000);

    const tx = await h.db.prisma.ledgerTransaction.findUnique({
      where: { idempotencyKey: `signup-grant:${res.body.user.id}` },
      include: { entries: { include: { account: true } } },
    });
    expect(tx?.kind).toBe('grant');
    expect(tx?.entries.map((e) => [e.account.key, e.amount]).sort()).toEqual(
      [
        ['grant_source', -10_000n],
        [`wallet:${res.body.user.id}`, 10_000n],
      ].sort(),
    );
    const totals = await ledgerTotals(h.db.prisma);
    expect(totals.wallets + totals.escrow + totals.rake).toBe(totals.granted);

    // The password is stored as an scrypt hash with its salt and parameters, never as given.
    const user = await h.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
    expect(user.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(user.passwordHash).not.toContain('correct horse');

    const me = await c.get<{ user: { id: string; name: string }; wallet: number; seats: unknown[] }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: res.body.user, wallet: 10_000, practice_wallet: 0, seats: [], locale: null });
  });

  it('sets the session cookie per the contract: HttpOnly, SameSite=Lax, Path=/, no Secure by default', async () => {
    const c = h.client();
    const res = await c.post('/api/auth/signup', { name: uniqueName(), password: 'password-1' });
    const attrs = cookieAttributes(res.headers.get('set-cookie'));
    expect(attrs.httponly).toBe(true);
    expect(attrs.samesite).toBe('Lax');
    expect(attrs.path).toBe('/');
    expect(attrs.secure).toBeUndefined();
    expect(Number(attrs['max-age'])).toBeGreaterThan(6 * 24 * 3600);

    // The cookie is the signed token the gateways verify without a database call.
    const token = c.cookie!.slice('felt_session='.length);
    const claims = await verifySessionToken(SECRET, token);
    const session = await h.db.prisma.session.findUniqueOrThrow({ where: { id: claims.sessionId } });
    expect(session.userId).toBe(claims.userId);
    expect(Math.floor(session.expiresAt.getTime() / 1000)).toBe(claims.expiresAt);
  });

  it('adds Secure when FELT_COOKIE_SECURE is on', async () => {
    const secure = await startHarness({ cookieSecure: true });
    try {
      const res = await secure.client().post('/api/auth/signup', { name: uniqueName(), password: 'password-1' });
      expect(res.status).toBe(201);
      expect(cookieAttributes(res.headers.get('set-cookie')).secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('refuses a taken name (case-insensitively) and bad input, creating nothing', async () => {
    const name = uniqueName('Bob');
    expect((await h.client().post('/api/auth/signup', { name, password: 'password-1' })).status).toBe(201);
    const before = await h.snapshot();
    const users = await h.db.prisma.user.count();

    const taken = await h.client().post('/api/auth/signup', { name: name.toUpperCase(), password: 'password-2' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ error: { code: 'name_taken' } });

    for (const body of [
      { name: 'ab', password: 'password-1' },
      { name: 'has space', password: 'password-1' },
      { name: uniqueName(), password: 'short' },
      { name: uniqueName() },
      { name: uniqueName(), password: 'password-1', extra: true },
    ]) {
      const res = await h.client().post('/api/auth/signup', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'invalid_request' } });
    }
    expect(await h.db.prisma.user.count()).toBe(users);
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('login and logout', () => {
  it('logs in with the right password only', async () => {
    const u = await h.user();
    const ok = h.client();
    const res = await ok.post<{ user: { id: string } }>('/api/auth/login', { name: u.name, password: 'password-1' });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(u.id);
    expect(ok.cookie).toBeDefined();

    const wrong = h.client();
    const bad = await wrong.post('/api/auth/login', { name: u.name, password: 'password-2' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_credentials' } });
    expect(wrong.cookie).toBeUndefined();

    const nobody = await h.client().post('/api/auth/login', { name: uniqueName('ghost'), password: 'password-1' });
    expect(nobody.status).toBe(401);
    expect(nobody.body).toMatchObject({ error: { code: 'invalid_credentials' } });
  });

  it('revokes the session on logout: the cookie stops working, Redis lists it for the gateways', async () => {
    const u = await h.user();
    const cookie = u.cookie!;
    const claims = await verifySessionToken(SECRET, cookie.slice('felt_session='.length));
    const out = await u.post('/api/auth/logout');
    expect(out.status).toBe(204);
    expect(u.cookie).toBeUndefined();
    const cleared = out.headers.get('set-cookie') ?? '';
    expect(cleared).toMatch(/felt_session=;/);
    expect(cleared).toMatch(/Max-Age=0/);

    const session = await h.db.prisma.session.findUniqueOrThrow({ where: { id: claims.sessionId } });
    expect(session.revokedAt).toBeInstanceOf(Date);
    const key = redisKeys(h.prefix).revoked(claims.sessionId);
    expect(await h.redis.exists(key)).toBe(1);
    const ttl = await h.redis.pttl(key);
    expect(ttl).toBeGreaterThan(6 * 24 * 3600 * 1000);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    // The revoked cookie, replayed by anyone, is refused everywhere.
    const replay = h.client();
    replay.cookie = cookie;
    for (const [method, path] of [
      ['GET', '/api/me'],
      ['GET', '/api/rooms'],
      ['POST', '/api/auth/logout'],
    ] as const) {
      const res = await replay.req(method, path);
      expect(res.status, path).toBe(401);
      expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('refuses a revoked session even if Redis has forgotten it (the sessions row decides)', async () => {
    const u = await h.user();
    const claims = await verifySessionToken(SECRET, u.cookie!.slice('felt_session='.length));
    const cookie = u.cookie!;
    await u.post('/api/auth/logout');
    await h.redis.del(redisKeys(h.prefix).revoked(claims.sessionId));
    const replay = h.client();
    replay.cookie = cookie;
    expect((await replay.get('/api/me')).status).toBe(401);
  });

  it('refuses a missing, forged, tampered, expired or unknown-session cookie', async () => {
    const u = await h.user();
    const anon = h.client();
    expect((await anon.get('/api/me')).body).toMatchObject({ error: { code: 'unauthenticated' } });

    const token = u.cookie!.slice('felt_session='.length);
    const [header, payload, sig] = token.split('.');
    const tamperedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'someone-else' }),
    ).toString('base64url');
    const forged = await signSessionToken('another-secret-0123456789abcdef0123', {
      userId: u.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
      name: u.name,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    const expired = await signSessionToken(SECRET, {
      userId: u.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
      name: u.name,
      expiresAt: Math.floor(Date.now() / 1000) - 10,
    });
    const unknownSession = await signSessionToken(SECRET, {
      userId: u.id,
      sessionId: '00000000-0000-4000-8000-000000000000',
      name: u.name,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    for (const bad of ['garbage', `${header}.${tamperedPayload}.${sig}`, forged, expired, unknownSession]) {
      const c = h.client();
      c.cookie = `felt_session=${bad}`;
      const res = await c.get('/api/me');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });
});
