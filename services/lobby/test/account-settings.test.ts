// The account's language (PATCH /api/me): kept in users.locale, returned by GET /api/me, checked
// against the contract's languages, and only for a signed-in user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

interface Me {
  readonly user: { readonly id: string };
  readonly locale: string | null;
}

describe('PATCH /api/me', () => {
  it('keeps the language with the account: every session of the user reads it, and null forgets it', async () => {
    const u = await h.user();
    expect((await u.get<Me>('/api/me')).body.locale).toBeNull();

    const changed = await u.req<Me>('PATCH', '/api/me', { locale: 'zh-CN' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ user: { id: u.id }, locale: 'zh-CN', wallet: 10_000, seats: [] });
    const row = await h.db.prisma.user.findUniqueOrThrow({ where: { id: u.id }, select: { locale: true } });
    expect(row.locale).toBe('zh-CN');

    // Another browser: log in again, same account, same language.
    const other = h.client();
    expect((await other.post('/api/auth/login', { name: u.name, password: 'password-1' })).status).toBe(200);
    expect((await other.get<Me>('/api/me')).body.locale).toBe('zh-CN');

    expect((await other.req<Me>('PATCH', '/api/me', { locale: 'en' })).body.locale).toBe('en');
    expect((await u.get<Me>('/api/me')).body.locale).toBe('en');
    expect((await u.req<Me>('PATCH', '/api/me', { locale: null })).body.locale).toBeNull();
    expect((await u.get<Me>('/api/me')).body.locale).toBeNull();
  });

  it('refuses a language the client does not speak, or anything else, with 400 invalid_request', async () => {
    const u = await h.user();
    await u.req('PATCH', '/api/me', { locale: 'zh-CN' });
    for (const body of [
      { locale: 'fr' },
      { locale: 'zh' },
      { locale: 'ZH-cn' },
      { locale: 7 },
      {},
      { locale: 'en', name: 'x' },
    ]) {
      const res = await u.req('PATCH', '/api/me', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: { code: 'invalid_request' } });
    }
    const notJson = await u.req('PATCH', '/api/me', 'locale=en');
    expect(notJson.status).toBe(400);
    // Nothing refused was kept.
    expect((await u.get<Me>('/api/me')).body.locale).toBe('zh-CN');
  });

  it('answers 401 unauthenticated without a session, and after logout', async () => {
    const anon = h.client();
    const res = await anon.req('PATCH', '/api/me', { locale: 'en' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });

    const u = await h.user();
    const cookie = u.cookie!;
    await u.post('/api/auth/logout');
    const replay = h.client();
    replay.cookie = cookie;
    const after = await replay.req('PATCH', '/api/me', { locale: 'zh-CN' });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'unauthenticated' } });
    const row = await h.db.prisma.user.findUniqueOrThrow({ where: { id: u.id }, select: { locale: true } });
    expect(row.locale).toBeNull();
  });

  it('refuses a change from a page on another origin (403 origin_not_allowed)', async () => {
    const u = await h.user();
    const res = await u.req('PATCH', '/api/me', { locale: 'zh-CN' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'origin_not_allowed' } });
    expect((await u.get<Me>('/api/me')).body.locale).toBeNull();
  });
});
