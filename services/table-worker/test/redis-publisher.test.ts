// RedisEventPublisher's timing on real Redis: a batch goes out in the event loop's next turn, so
// what the caller writes in the current turn (the command's answer) is not held up by it, and
// batches and resets still leave in call order. (The contract every publisher keeps is in
// conformance/event-publisher.test.ts.)
import { ChannelSubscriber, closeRedis, redisKeys } from '@felt/platform';
import type { TableMessage } from '@felt/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RedisEventPublisher } from '../src/adapters/redis-publisher.js';
import { RedisNamespace } from './conformance/redis-namespace.js';

const ns = new RedisNamespace('redis-publisher');
const subscriberConnection = ns.redis.duplicate();
const subscriber = new ChannelSubscriber(subscriberConnection);
afterAll(async () => {
  await closeRedis(subscriberConnection);
  await ns.close();
});

const closed = (tableId: string, tableSeq: number): TableMessage => ({
  type: 'table_closed',
  table_id: tableId,
  table_seq: tableSeq,
});

/** Every message on the table's channel, as raw text, in arrival order. */
async function listen(channel: string): Promise<{ got: string[]; stop: () => Promise<void> }> {
  const got: string[] = [];
  const stop = await subscriber.subscribe(channel, (message) => got.push(message));
  return { got, stop };
}

describe('RedisEventPublisher', () => {
  it('writes a batch after what the caller sends in the same turn, on the same connection', async () => {
    const prefix = ns.prefix();
    const channel = redisKeys(prefix).table('t1');
    const l = await listen(channel);
    const publisher = new RedisEventPublisher(ns.redis, prefix);
    // The batch is published first; a message written on the same connection in the same turn (as
    // the gRPC answer is, in the worker) still reaches Redis before it.
    const batch = publisher.publish('t1', [{ audience: { kind: 'table', except: [] }, message: closed('t1', 1) }]);
    void ns.redis.publish(channel, 'written-in-the-same-turn');
    await batch;
    await vi.waitFor(() => expect(l.got).toHaveLength(2), { timeout: 5_000, interval: 10 });
    expect(l.got[0]).toBe('written-in-the-same-turn');
    expect(JSON.parse(l.got[1]!)).toMatchObject({ table_id: 't1', table_seq: 1 });
    await l.stop();
  });

  it('keeps call order across batches and a reset called in the same turn', async () => {
    const prefix = ns.prefix();
    const channel = redisKeys(prefix).table('t1');
    const l = await listen(channel);
    const publisher = new RedisEventPublisher(ns.redis, prefix);
    const table = (seq: number) => ({ audience: { kind: 'table', except: [] }, message: closed('t1', seq) }) as const;
    const calls = [
      publisher.publish('t1', [table(1), table(2)]),
      publisher.publish('t1', [table(3)]),
      publisher.tableReset('t1', 3),
      publisher.publish('t1', [table(4)]),
    ];
    await Promise.all(calls);
    await vi.waitFor(() => expect(l.got).toHaveLength(5), { timeout: 5_000, interval: 10 });
    const seen = l.got.map((m) => {
      const e = JSON.parse(m) as { table_seq: number; control?: string };
      return e.control === 'reattach' ? `reset@${e.table_seq}` : `${e.table_seq}`;
    });
    expect(seen).toEqual(['1', '2', '3', 'reset@3', '4']);
    await l.stop();
  });
});
