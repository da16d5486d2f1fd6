import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChannelSubscriber } from '../redis/channel-subscriber.js';
import { closeRedis, createRedis, type Redis } from '../redis/connect.js';
import { redisKeys } from '../redis/keys.js';
import { RingView, type RingChange } from './ring-view.js';
import { readLiveMembers, WorkerRegistry } from './worker-registry.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('worker registry and ring view (real Redis)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let sub: Redis;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(() => {
    redis = createRedis(REDIS_URL, { name: 'registry-test' });
    sub = createRedis(REDIS_URL, { name: 'registry-test-sub' });
  });

  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(sub);
    await closeRedis(redis);
  });

  function registry(id: string, ttlMs = 5000, heartbeatMs = 1000): WorkerRegistry {
    const r = new WorkerRegistry({
      redis,
      prefix,
      member: { id, addr: `127.0.0.1:${id.length}0051`, httpAddr: '127.0.0.1:9091' },
      heartbeatMs,
      ttlMs,
    });
    cleanups.push(() => r.stop());
    return r;
  }

  it('registers, reports drain, and leaves', async () => {
    const a = registry('w-a');
    await a.start();
    const b = registry('w-b');
    await b.start();
    let members = await readLiveMembers(redis, prefix);
    expect(members.map((m) => m.id)).toEqual(['w-a', 'w-b']);
    expect(members[0]).toMatchObject({ addr: '127.0.0.1:30051', draining: false });

    await b.setDraining(true);
    members = await readLiveMembers(redis, prefix);
    expect(members.find((m) => m.id === 'w-b')?.draining).toBe(true);

    await a.stop();
    expect((await readLiveMembers(redis, prefix)).map((m) => m.id)).toEqual(['w-b']);
    expect(await redis.exists(redisKeys(prefix).worker('w-a'))).toBe(0);
  });

  it('drops a member whose heartbeat stopped once its TTL passes', async () => {
    const dead = new WorkerRegistry({
      redis,
      prefix,
      member: { id: 'w-dead', addr: 'x:1', httpAddr: 'x:2' },
      heartbeatMs: 60_000,
      ttlMs: 300,
    });
    await dead.start();
    expect((await readLiveMembers(redis, prefix)).map((m) => m.id)).toContain('w-dead');
    // The member's key expires with its TTL: watch for it to go.
    await vi.waitFor(
      async () => expect((await readLiveMembers(redis, prefix)).map((m) => m.id)).not.toContain('w-dead'),
      { timeout: 5_000, interval: 50 },
    );
    await dead.stop();
  });

  it('ring views rebuild on join, drain and leave announcements', async () => {
    const subscriber = new ChannelSubscriber(sub);
    const view = new RingView({ redis, subscriber, prefix, refreshMs: 60_000 });
    await view.start();
    cleanups.push(() => view.stop());
    const changes: RingChange[] = [];
    view.onChange((c) => changes.push(c));

    const waitFor = (pred: () => boolean) =>
      vi.waitFor(() => expect(pred()).toBe(true), { timeout: 2_000, interval: 20 });

    const a = registry('w-1');
    await a.start();
    await waitFor(() => view.current.members.join() === 'w-1');
    const b = registry('w-2');
    await b.start();
    await waitFor(() => view.current.members.join() === 'w-1,w-2');
    expect(view.ownerOf('some-table')?.id).toMatch(/^w-[12]$/);

    // Draining leaves the ring of owners but stays dialable.
    await b.setDraining(true);
    await waitFor(() => view.current.members.join() === 'w-1');
    expect(view.members().map((m) => m.id)).toEqual(['w-1', 'w-2']);
    expect(view.ownerOf('some-table')?.id).toBe('w-1');

    await a.stop();
    // Only a draining member left: it keeps serving rather than nobody.
    await waitFor(() => view.current.members.join() === 'w-2');
    expect(changes.length).toBeGreaterThanOrEqual(4);
  });
});
