// The key layout check every service runs at start, and the move from layout 1, on the real shared
// Redis under a prefix of the test's own (and a redis-server of its own for the wait on a Redis that
// is not up yet).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { layoutOneKeys, REDIS_LAYOUT, redisKeys } from './keys.js';
import {
  LAYOUT_MIGRATING,
  migrateRedisLayout,
  RedisLayoutError,
  refuseForeignRedisLayout,
  requireRedisLayout,
} from './layout.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;
const prefixes: string[] = [];

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
});

afterEach(async () => {
  for (const p of prefixes.splice(0)) {
    const found = await redis.keys(`${p}*`);
    if (found.length > 0) await redis.del(...found);
  }
});

afterAll(() => redis?.disconnect());

function fresh(): string {
  const p = `layout-${randomUUID().slice(0, 8)}:`;
  prefixes.push(p);
  return p;
}

const caught = async (p: Promise<unknown>): Promise<RedisLayoutError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RedisLayoutError);
  return err as RedisLayoutError;
};

/** What a layout-1 install holds: a table mid-hand, a tournament, the registry, revocations, the feed. */
async function seedLayoutOne(prefix: string, tableId: string): Promise<Record<string, { type: string; ttl: boolean }>> {
  const old = layoutOneKeys(prefix);
  const [epoch, lease, checkpoint, events, mark, botsOnly] = old.tableKinds.map((k) => `${k.old}${tableId}`);
  const seeded: Record<string, { type: string; ttl: boolean }> = {};
  const put = (key: string, type: string, ttl: boolean) => (seeded[key] = { type, ttl });
  await redis.set(epoch!, '7');
  put(epoch!, 'string', false);
  await redis.set(lease!, 'w1|i1|7', 'PX', 60_000);
  put(lease!, 'string', true);
  await redis.set(checkpoint!, '{"version":1,"tableSeq":12}', 'EX', 600);
  put(checkpoint!, 'string', true);
  await redis.rpush(events!, '{"e":1}', '{"e":2}');
  await redis.expire(events!, 600);
  put(events!, 'list', true);
  await redis.hset(mark!, { tableSeq: '12', epoch: '7', handId: 'h1', handNo: '3' });
  await redis.expire(mark!, 600);
  put(mark!, 'hash', true);
  await redis.set(botsOnly!, '1');
  put(botsOnly!, 'string', false);
  const director = `${old.tableKinds[2]!.old}tournament:t9`;
  await redis.set(director, '{"director":1}');
  put(director, 'string', false);
  // A worker that stopped: its registration expired a minute ago.
  await redis.zadd(old.workers, Date.now() - 60_000, 'w1');
  put(old.workers, 'zset', false);
  await redis.hset(`${old.workerHashes.old}w1`, { addr: '127.0.0.1:1', httpAddr: '127.0.0.1:2' });
  put(`${old.workerHashes.old}w1`, 'hash', false);
  await redis.set(`${old.revoked.old}s1`, '1', 'PX', 60_000);
  put(`${old.revoked.old}s1`, 'string', true);
  for (const f of old.fixed.slice(1, 3)) {
    await redis.set(f.old, '5');
    put(f.old, 'string', false);
  }
  const watchers = old.fixed.find((f) => f.to === redisKeys(prefix).lobbyFeedWatchers)!.old;
  await redis.zadd(watchers, Date.now() + 30_000, 'u1');
  put(watchers, 'zset', false);
  return seeded;
}

describe('requireRedisLayout', () => {
  it('sets the layout on a Redis with nothing of the prefix, and finds it after', async () => {
    const prefix = fresh();
    expect(await requireRedisLayout(redis, prefix)).toBe('fresh');
    expect(await redis.get(redisKeys(prefix).layout)).toBe(String(REDIS_LAYOUT));
    expect(await requireRedisLayout(redis, prefix)).toBe('current');
  });

  it('as a reader (write: false) finds a fresh Redis fresh and leaves it so, and still refuses layout 1', async () => {
    const prefix = fresh();
    expect(await requireRedisLayout(redis, prefix, { write: false })).toBe('fresh');
    expect(await redis.exists(redisKeys(prefix).layout)).toBe(0);
    await redis.set(`${prefix}revocations:loaded`, new Date().toISOString());
    expect((await caught(requireRedisLayout(redis, prefix, { write: false }))).found).toBe('1');
    expect(await redis.exists(redisKeys(prefix).layout)).toBe(0);
  });

  it('lets services that start at once agree: one sets it, the others find it', async () => {
    const prefix = fresh();
    const results = await Promise.all(Array.from({ length: 6 }, () => requireRedisLayout(redis, prefix)));
    expect(results.filter((r) => r === 'fresh').length).toBeGreaterThanOrEqual(1);
    expect(await redis.get(redisKeys(prefix).layout)).toBe(String(REDIS_LAYOUT));
  });

  it('refuses keys of layout 1 that were not migrated, and sets nothing', async () => {
    const prefix = fresh();
    await redis.set(`${prefix}revocations:loaded`, new Date().toISOString());
    const err = await caught(requireRedisLayout(redis, prefix));
    expect(err.found).toBe('1');
    expect(err.message).toMatch(/redis:migrate/);
    expect(await redis.exists(redisKeys(prefix).layout)).toBe(0);
  });

  it('refuses a layout it does not know', async () => {
    const prefix = fresh();
    await redis.set(redisKeys(prefix).layout, '3');
    const err = await caught(requireRedisLayout(redis, prefix));
    expect(err.found).toBe('3');
    expect(await redis.get(redisKeys(prefix).layout)).toBe('3');
  });

  it('refuses while a worker of layout 1 still beats, even on a migrated Redis', async () => {
    const prefix = fresh();
    await redis.set(redisKeys(prefix).layout, String(REDIS_LAYOUT));
    await redis.zadd(layoutOneKeys(prefix).workers, Date.now() + 10_000, 'old-worker');
    expect((await caught(requireRedisLayout(redis, prefix))).found).toBe('live-workers');
    // Once its registration has expired, the stale member is no one.
    await redis.zadd(layoutOneKeys(prefix).workers, Date.now() - 1, 'old-worker');
    expect(await requireRedisLayout(redis, prefix)).toBe('current');
  });
});

describe('refuseForeignRedisLayout', () => {
  it('exits 1 with one fatal line on a Redis of another layout', async () => {
    const prefix = fresh();
    await redis.set(redisKeys(prefix).layout, '3');
    const lines: { event?: unknown; msg: string }[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      fatal: (o: { event?: unknown }, msg: string) => void lines.push({ event: o.event, msg }),
    };
    let exited: number | undefined;
    await refuseForeignRedisLayout(
      redis,
      prefix,
      logger as never,
      ((code: number) => {
        exited = code;
      }) as never,
    );
    expect(exited).toBe(1);
    expect(lines).toEqual([{ event: 'redis_layout_refused', msg: expect.stringMatching(/layout "3"/) as unknown }]);
  });

  describe('before its Redis is up', () => {
    let server: ChildProcess | undefined;
    afterAll(() => server?.kill('SIGKILL'));

    it('waits for it instead of starting unchecked', async () => {
      const port = await freePort();
      const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => 50 });
      client.on('error', () => undefined);
      try {
        const warned: unknown[] = [];
        const logger = {
          info: () => undefined,
          warn: (o: { event?: unknown }) => void warned.push(o.event),
          fatal: () => undefined,
        };
        const checked = refuseForeignRedisLayout(client, 'x:', logger as never, (() => undefined) as never, 50);
        await vi.waitFor(() => expect(warned.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
        server = spawn(
          'redis-server',
          ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          {
            stdio: 'ignore',
          },
        );
        await checked;
        expect(warned.every((e) => e === 'redis_layout_unchecked')).toBe(true);
        expect(await client.get('x:layout')).toBe(String(REDIS_LAYOUT));
      } finally {
        client.disconnect();
      }
    }, 30_000);
  });
});

describe('migrateRedisLayout', () => {
  it('moves every layout-1 key with its value and TTL, sets the layout, and has nothing to do again', async () => {
    const prefix = fresh();
    const tableId = randomUUID();
    const seeded = await seedLayoutOne(prefix, tableId);
    // Keys both layouts spell alike stay where they are.
    const unchanged = [`${prefix}rl:login-name:ann`, `${prefix}persist-wait:r1:3`, `${prefix}audit:last`];
    for (const key of unchanged) await redis.set(key, 'x');
    expect((await caught(requireRedisLayout(redis, prefix))).found).toBe('1');

    const lines: string[] = [];
    const result = await migrateRedisLayout(redis, prefix, (l) => lines.push(l));
    expect(result).toEqual({ moved: Object.keys(seeded).length, conflicts: [], layout: String(REDIS_LAYOUT) });
    expect(lines[0]).toBe(`moved ${Object.keys(seeded).length} key(s) to layout ${REDIS_LAYOUT}`);

    const k = redisKeys(prefix);
    const old = layoutOneKeys(prefix);
    const target = (key: string): string => {
      const kind = old.tableKinds.find((t) => key.startsWith(t.old));
      if (kind) return kind.to(key.slice(kind.old.length));
      const fixed = old.fixed.find((f) => f.old === key);
      if (fixed) return fixed.to;
      if (key.startsWith(old.workerHashes.old)) return old.workerHashes.to(key.slice(old.workerHashes.old.length));
      return old.revoked.to(key.slice(old.revoked.old.length));
    };
    for (const [key, { type, ttl }] of Object.entries(seeded)) {
      expect(await redis.exists(key), key).toBe(0);
      expect(await redis.type(target(key)), target(key)).toBe(type);
      const pttl = await redis.pttl(target(key));
      if (ttl) expect(pttl, target(key)).toBeGreaterThan(0);
      else expect(pttl, target(key)).toBe(-1);
    }
    expect(await redis.get(k.epoch(tableId))).toBe('7');
    expect(await redis.get(k.tableCheckpoint('tournament:t9'))).toBe('{"director":1}');
    expect(await redis.lrange(k.tableEvents(tableId), 0, -1)).toEqual(['{"e":1}', '{"e":2}']);
    expect(await redis.hget(k.checkpointMark(tableId), 'handId')).toBe('h1');
    for (const key of unchanged) expect(await redis.get(key)).toBe('x');
    expect(await requireRedisLayout(redis, prefix)).toBe('current');

    expect(await migrateRedisLayout(redis, prefix)).toEqual({ moved: 0, conflicts: [], layout: String(REDIS_LAYOUT) });
  });

  it('refuses, moving nothing, while a worker of either layout beats', async () => {
    for (const live of [(p: string) => layoutOneKeys(p).workers, (p: string) => redisKeys(p).workers]) {
      const prefix = fresh();
      const tableId = randomUUID();
      await seedLayoutOne(prefix, tableId);
      await redis.zadd(live(prefix), Date.now() + 10_000, 'w2');
      expect((await caught(migrateRedisLayout(redis, prefix))).found).toBe('live-workers');
      expect(await redis.get(`${prefix}epoch:${tableId}`)).toBe('7');
      expect(await redis.exists(redisKeys(prefix).epoch(tableId), redisKeys(prefix).layout)).toBe(0);
    }
  });

  it('leaves a key whose new name is taken, reports it, and does not set the layout', async () => {
    const prefix = fresh();
    const tableId = randomUUID();
    await seedLayoutOne(prefix, tableId);
    const k = redisKeys(prefix);
    await redis.set(k.epoch(tableId), '9');
    const result = await migrateRedisLayout(redis, prefix);
    expect(result.conflicts).toEqual([`${prefix}epoch:${tableId}`]);
    expect(result.layout).toBe(LAYOUT_MIGRATING);
    expect(await redis.get(k.epoch(tableId))).toBe('9');
    expect(await redis.get(`${prefix}epoch:${tableId}`)).toBe('7');
    // The other keys moved, the fixed ones among them; the services keep refusing until someone looks.
    expect(await redis.exists(k.revocationsLoaded, k.tableCheckpoint(tableId))).toBe(2);
    const err = await caught(requireRedisLayout(redis, prefix));
    expect(err.found).toBe(LAYOUT_MIGRATING);
    expect(err.message).toMatch(/redis:migrate/);
    // Once the operator has settled it (here: the stray new key removed), a run finishes the move.
    await redis.del(k.epoch(tableId));
    expect(await migrateRedisLayout(redis, prefix)).toEqual({ moved: 1, conflicts: [], layout: String(REDIS_LAYOUT) });
    expect(await redis.get(k.epoch(tableId))).toBe('7');
  });

  it('refuses a layout it does not move from', async () => {
    const prefix = fresh();
    await redis.set(redisKeys(prefix).layout, '3');
    expect((await caught(migrateRedisLayout(redis, prefix))).found).toBe('3');
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
