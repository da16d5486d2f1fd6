// The workers and the persister refuse an evicting Redis at start. Against a real redis-server of
// the test's own (a spare port, no data), whose policy the test sets, and one that forbids CONFIG:
// never the shared one.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvictingRedisError, refuseEvictingRedis, requireNoEviction } from './eviction.js';

const servers: ChildProcess[] = [];
let redis: Redis;
/** A server that forbids CONFIG, as managed Redis services do. */
let managed: Redis;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

async function startServer(...extra: string[]): Promise<Redis> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra];
  servers.push(spawn('redis-server', args, { stdio: 'ignore' }));
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 50, retryStrategy: () => 50 });
  await client.ping();
  return client;
}

beforeAll(async () => {
  redis = await startServer();
  managed = await startServer('--rename-command', 'CONFIG', '');
});

afterAll(() => {
  redis?.disconnect();
  managed?.disconnect();
  for (const s of servers) s.kill('SIGKILL');
});

describe('requireNoEviction', () => {
  it('accepts noeviction', async () => {
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    expect(await requireNoEviction(redis)).toBe('noeviction');
  });

  it('refuses every evicting policy, naming it and the fix', async () => {
    for (const policy of ['allkeys-lru', 'volatile-lru', 'allkeys-random', 'volatile-ttl', 'allkeys-lfu']) {
      await redis.config('SET', 'maxmemory-policy', policy);
      const err = await requireNoEviction(redis).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EvictingRedisError);
      expect(err).toMatchObject({ code: 'evicting_redis', policy });
      expect((err as Error).message).toContain('maxmemory-policy noeviction');
    }
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
  });

  it('says unknown when the server forbids CONFIG (a managed Redis), rather than guessing', async () => {
    expect(await requireNoEviction(managed)).toBe('unknown');
  });
});

describe('refuseEvictingRedis, at a service start', () => {
  function recorder() {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const exits: number[] = [];
    const logger = {
      warn: (obj: Record<string, unknown>, msg: string) => void lines.push({ level: 'warn', obj, msg }),
      fatal: (obj: Record<string, unknown>, msg: string) => void lines.push({ level: 'fatal', obj, msg }),
    };
    const exit = (code: number): never => {
      exits.push(code);
      throw new Error('exited');
    };
    return { lines, exits, logger: logger as never, exit };
  }

  it('exits 1 with one fatal line naming the policy against an evicting Redis', async () => {
    const r = recorder();
    await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await expect(refuseEvictingRedis(redis, r.logger, r.exit)).rejects.toThrow('exited');
    expect(r.exits).toEqual([1]);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ level: 'fatal', obj: { event: 'redis_evicting', policy: 'allkeys-lru' } });
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
  });

  it('starts quietly against noeviction, and warns once when the policy cannot be read', async () => {
    const quiet = recorder();
    await refuseEvictingRedis(redis, quiet.logger, quiet.exit);
    expect(quiet.lines).toEqual([]);
    const unknown = recorder();
    await refuseEvictingRedis(managed, unknown.logger, unknown.exit);
    expect(unknown.exits).toEqual([]);
    expect(unknown.lines).toMatchObject([{ level: 'warn', obj: { event: 'redis_policy_unknown' } }]);
  });
});
