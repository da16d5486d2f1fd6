import { randomBytes } from 'node:crypto';
import { closeRedis, createRedis, redisKeys, revocationsLoadedKey, signSessionToken, type Redis } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUpgrade, originAllowed } from './upgrade-auth.js';

const secret = 'x'.repeat(40);
const prefix = `test:${randomBytes(6).toString('hex')}:`;

describe('upgrade authorization (real Redis)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { name: 'gw-auth-test' });
    // A lobby has loaded the revocation keys from Postgres: the list is complete.
    await redis.set(revocationsLoadedKey(prefix), '1');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await closeRedis(redis);
  });

  const opts = () => ({ secret, redis, prefix, allowedOrigins: new Set(['http://localhost:8080']) });
  const token = (sid: string, exp = Math.floor(Date.now() / 1000) + 3600) =>
    signSessionToken(secret, { userId: 'u1', sessionId: sid, name: 'Ann', expiresAt: exp });

  it('accepts a valid cookie from an allowed origin, or from a client that sends no Origin', async () => {
    const cookie = `a=b; felt_session=${await token('s1')}`;
    const ok = await authorizeUpgrade(opts(), { origin: 'http://localhost:8080', cookie });
    expect(ok).toMatchObject({ ok: true, claims: { userId: 'u1', sessionId: 's1', name: 'Ann' } });
    expect((await authorizeUpgrade(opts(), { origin: '', cookie })).ok).toBe(true);
  });

  it('refuses a foreign origin with 403 before looking at the cookie', async () => {
    const cookie = `felt_session=${await token('s1')}`;
    expect(await authorizeUpgrade(opts(), { origin: 'https://evil.example', cookie })).toEqual({
      ok: false,
      status: 403,
      reason: 'origin_not_allowed',
    });
    expect(originAllowed('http://localhost:8080.evil.example', new Set(['http://localhost:8080']))).toBe(false);
  });

  it('refuses missing, forged, expired and revoked sessions with 401', async () => {
    const o = 'http://localhost:8080';
    expect(await authorizeUpgrade(opts(), { origin: o, cookie: '' })).toMatchObject({
      status: 401,
      reason: 'no_session',
    });
    const forged = await signSessionToken('y'.repeat(40), { userId: 'u1', sessionId: 's2', name: 'A', expiresAt: 9e9 });
    expect(await authorizeUpgrade(opts(), { origin: o, cookie: `felt_session=${forged}` })).toMatchObject({
      status: 401,
      reason: 'bad_session',
    });
    const expired = await token('s3', Math.floor(Date.now() / 1000) - 10);
    expect(await authorizeUpgrade(opts(), { origin: o, cookie: `felt_session=${expired}` })).toMatchObject({
      status: 401,
      reason: 'session_expired',
    });
    await redis.set(redisKeys(prefix).revoked('s4'), '1', 'EX', 60);
    expect(await authorizeUpgrade(opts(), { origin: o, cookie: `felt_session=${await token('s4')}` })).toMatchObject({
      status: 401,
      reason: 'session_revoked',
    });
  });

  it('fails closed while the revocation list is incomplete (Redis lost it): 503, until a lobby reloads it', async () => {
    const o = 'http://localhost:8080';
    const cookie = `felt_session=${await token('s5')}`;
    await redis.del(revocationsLoadedKey(prefix));
    try {
      expect(await authorizeUpgrade(opts(), { origin: o, cookie })).toEqual({
        ok: false,
        status: 503,
        reason: 'auth_unavailable',
      });
      // A revoked key that survived still refuses as revoked.
      await redis.set(redisKeys(prefix).revoked('s6'), '1', 'EX', 60);
      expect(await authorizeUpgrade(opts(), { origin: o, cookie: `felt_session=${await token('s6')}` })).toMatchObject({
        status: 401,
        reason: 'session_revoked',
      });
    } finally {
      await redis.set(revocationsLoadedKey(prefix), '1');
    }
    expect((await authorizeUpgrade(opts(), { origin: o, cookie })).ok).toBe(true);
  });
});
