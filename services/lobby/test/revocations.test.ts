// Logout used to live for gateways only as a Redis key with a TTL; once Redis lost it, a
// logged-out cookie opened sockets again. The sessions rows are the truth, and Redis is reloaded
// from them whenever its list is incomplete.
import { revocationState, revocationsLoadedKey, SESSION_COOKIE, verifySessionToken, redisKeys } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevocationSync } from '../src/revocation-sync.js';
import { RedisRevocationList } from '../src/redis-adapters.js';
import {
  capturedLogger,
  expectError,
  flushPrefix,
  SECRET,
  startHarness,
  type Client,
  type Harness,
} from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ revocationCheckMs: 100 });
});

afterAll(async () => {
  await h.close();
});

async function sessionId(c: Client): Promise<string> {
  const token = c.cookie!.slice(`${SESSION_COOKIE}=`.length);
  return (await verifySessionToken(SECRET, token)).sessionId;
}

const state = (sid: string) => revocationState(h.redis, h.prefix, sid);

/** Resolves with the next reload the sync reports. */
function nextReload(sync: RevocationSync): Promise<{ result: string; sessions: number }> {
  return new Promise((resolve) => {
    const off = sync.onReload((result, sessions) => {
      off();
      resolve({ result, sessions });
    });
  });
}

describe('durable logout', () => {
  it('after Redis loses the keys, a logged-out session is unknown until the reload, then revoked again', async () => {
    const sync = h.lobby.revocationSync;
    const first = nextReload(sync);
    sync.start();
    expect((await first).result).toBe('reloaded');

    const out = await h.user();
    const live = await h.user();
    const outSid = await sessionId(out);
    const liveSid = await sessionId(live);
    expect(await state(outSid)).toBe('live');
    expect((await out.post('/api/auth/logout')).status).toBe(204);
    expect(await state(outSid)).toBe('revoked');
    const row = await h.db.prisma.session.findUniqueOrThrow({ where: { id: outSid } });
    expect(row.revokedAt).not.toBeNull();

    // Redis loses everything under the prefix (a restart without persistence, a flush).
    await sync.stop();
    expect(await flushPrefix(h.redis, h.prefix)).toBeGreaterThan(0);
    expect(await state(outSid)).toBe('unknown');
    expect(await state(liveSid)).toBe('unknown');

    // At start, the sync reloads from Postgres.
    const reloaded = nextReload(sync);
    sync.start();
    expect(await reloaded).toEqual({ result: 'reloaded', sessions: 1 });
    expect(await state(outSid)).toBe('revoked');
    expect(await state(liveSid)).toBe('live');
    // The revocation count moved with the reload: a gateway whose count no longer matches re-reads
    // every open session, so a socket of a session revoked only in Postgres is ended too.
    expect(Number(await h.redis.get(redisKeys(h.prefix).revocationsSeq))).toBeGreaterThanOrEqual(1);
    // Each key lives as long as its session would have.
    const ttl = await h.redis.pttl(redisKeys(h.prefix).revoked(outSid));
    expect(ttl).toBeGreaterThan(row.expiresAt.getTime() - Date.now() - 60_000);
    expect(ttl).toBeLessThanOrEqual(row.expiresAt.getTime() - Date.now() + 1000);

    // And periodically: lose the keys again while it runs.
    const again = nextReload(sync);
    await flushPrefix(h.redis, h.prefix);
    expect(await again).toEqual({ result: 'reloaded', sessions: 1 });
    expect(await state(outSid)).toBe('revoked');
    await sync.stop();

    // The cookie stays refused by the lobby all along.
    expectError(await out.get('/api/me'), 401, 'unauthenticated');
  });

  it('lets several replicas reload at once: one sets the marker, the keys are the same', async () => {
    const out = await h.user();
    const sid = await sessionId(out);
    await out.post('/api/auth/logout');
    await flushPrefix(h.redis, h.prefix);
    const replicas = Array.from(
      { length: 3 },
      () =>
        new RevocationSync({
          prisma: h.db.prisma,
          redis: h.redis,
          prefix: h.prefix,
          revocations: new RedisRevocationList(h.redis, h.prefix),
          logger: capturedLogger().logger,
          intervalMs: 60_000,
        }),
    );
    const results = await Promise.all(replicas.map((r) => r.check()));
    expect(results.filter((r) => r === 'reloaded').length).toBeGreaterThanOrEqual(1);
    for (const r of results) expect(['reloaded', 'superseded']).toContain(r);
    expect(await state(sid)).toBe('revoked');
    // A later check by any of them finds the marker and does nothing.
    expect(await replicas[0]!.check()).toBe('complete');
  });

  it('does not set the marker when Redis is flushed during the reload', async () => {
    const out = await h.user();
    const sid = await sessionId(out);
    const live = await sessionId(await h.user());
    await out.post('/api/auth/logout');
    await flushPrefix(h.redis, h.prefix);
    // A Redis client whose first page write is preceded by a flush of the prefix, as a restart would.
    const sync = new RevocationSync({
      prisma: h.db.prisma,
      redis: new Proxy(h.redis, {
        get(target, prop, receiver) {
          if (prop === 'pipeline') {
            return () => {
              const p = target.pipeline();
              const exec = p.exec.bind(p);
              p.exec = async () => {
                await flushPrefix(h.redis, h.prefix);
                return exec();
              };
              return p;
            };
          }
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      }),
      prefix: h.prefix,
      revocations: new RedisRevocationList(h.redis, h.prefix),
      logger: capturedLogger().logger,
      intervalMs: 60_000,
    });
    expect(await sync.check()).toBe('superseded');
    // Keys written after the flush are there, but nothing says the list is complete: a session that
    // is not listed is unknown, not live.
    expect(await h.redis.exists(revocationsLoadedKey(h.prefix))).toBe(0);
    expect(await state(live)).toBe('unknown');
    // The next check (no flush this time) completes it.
    expect(await h.lobby.revocationSync.check()).toBe('reloaded');
    expect(await state(sid)).toBe('revoked');
    expect(await state(live)).toBe('live');
  });
});

describe('log out everywhere', () => {
  it("revokes every session of the user in Postgres and Redis, and leaves another user's live", async () => {
    await h.lobby.revocationSync.check();
    const phone = await h.user();
    const laptop = h.client();
    expect((await laptop.post('/api/auth/login', { name: phone.name, password: 'password-1' })).status).toBe(200);
    const other = await h.user();
    const [phoneSid, laptopSid, otherSid] = await Promise.all([sessionId(phone), sessionId(laptop), sessionId(other)]);
    expect(phoneSid).not.toBe(laptopSid);

    const res = await laptop.post<{ revoked: number }>('/api/auth/logout-all');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    expect(res.headers.get('set-cookie')).toMatch(/^felt_session=;/);

    expect(await state(phoneSid)).toBe('revoked');
    expect(await state(laptopSid)).toBe('revoked');
    expect(await state(otherSid)).toBe('live');
    const rows = await h.db.prisma.session.findMany({ where: { userId: phone.id } });
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
    expectError(await phone.get('/api/me'), 401, 'unauthenticated');
    expect((await other.get('/api/me')).status).toBe(200);

    // Durable too: lose Redis, reload, still revoked.
    await flushPrefix(h.redis, h.prefix);
    expect(await h.lobby.revocationSync.check()).toBe('reloaded');
    expect(await state(phoneSid)).toBe('revoked');
    expect(await state(laptopSid)).toBe('revoked');
    expect(await state(otherSid)).toBe('live');
  });

  it('needs a session', async () => {
    expectError(await h.client().post('/api/auth/logout-all'), 401, 'unauthenticated');
  });
});
