import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChannelSubscriber } from './channel-subscriber.js';
import { closeRedis, createRedis, type Redis } from './connect.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('ChannelSubscriber (real Redis)', () => {
  const channel = `test:${randomBytes(6).toString('hex')}:table:t1`;
  let pub: Redis;
  let sub: Redis;

  beforeAll(() => {
    pub = createRedis(REDIS_URL, { name: 'sub-test-pub' });
    sub = createRedis(REDIS_URL, { name: 'sub-test-sub' });
  });
  afterAll(async () => {
    await closeRedis(sub);
    await closeRedis(pub);
  });

  const numsub = async () => {
    const r = (await pub.pubsub('NUMSUB', channel)) as [string, number];
    return Number(r[1]);
  };

  it('subscribes once for many handlers and unsubscribes after the last leaves', async () => {
    const s = new ChannelSubscriber(sub);
    const got: string[] = [];
    const off1 = await s.subscribe(channel, (m) => got.push(`1:${m}`));
    const off2 = await s.subscribe(channel, (m) => got.push(`2:${m}`));
    expect(await numsub()).toBe(1);
    await pub.publish(channel, 'a');
    await vi.waitFor(() => expect(got.length).toBeGreaterThanOrEqual(2), { timeout: 2_000, interval: 10 });
    await off1();
    await pub.publish(channel, 'b');
    await vi.waitFor(() => expect(got.length).toBeGreaterThanOrEqual(3), { timeout: 2_000, interval: 10 });
    expect(got.sort()).toEqual(['1:a', '2:a', '2:b']);
    await off2();
    expect(await numsub()).toBe(0);
    expect(s.channels()).toEqual([]);
  });

  it('ends subscribed when a leave races a join', async () => {
    const s = new ChannelSubscriber(sub);
    const off = await s.subscribe(channel, () => undefined);
    const leaving = off();
    const joining = s.subscribe(channel, () => undefined);
    await leaving;
    const off2 = await joining;
    expect(await numsub()).toBe(1);
    await off2();
    expect(await numsub()).toBe(0);
  });

  it('a subscription asked for between connect and ready waits for ready (the ready check is not refused)', async () => {
    const fresh = createRedis(REDIS_URL, { name: 'sub-test-fresh', maxRetriesPerRequest: null });
    const errors: string[] = [];
    fresh.on('error', (err: Error) => errors.push(err.message));
    try {
      const s = new ChannelSubscriber(fresh);
      // The gap ioredis leaves between connect and ready, where a SUBSCRIBE would be written at once.
      const subscribed = new Promise<() => Promise<void>>((resolve, reject) => {
        fresh.once('connect', () => void s.subscribe(channel, () => undefined).then(resolve, reject));
      });
      const off = await subscribed;
      expect(fresh.status).toBe('ready');
      expect(await numsub()).toBe(1);
      expect(errors).toEqual([]);
      await off();
    } finally {
      await closeRedis(fresh);
    }
  });
});
