// The EventPublisher contract, run against the memory publisher and the Redis one.
import { ChannelSubscriber, closeRedis, decodeEnvelope, redisKeys } from '@felt/platform';
import { afterAll } from 'vitest';
import { MemoryEventPublisher, type Delivery } from '../../src/adapters/memory-publisher.js';
import { RedisEventPublisher } from '../../src/adapters/redis-publisher.js';
import { describeEventPublisher } from './describe-event-publisher.js';
import { RedisNamespace } from './redis-namespace.js';

describeEventPublisher('memory', () => {
  const publisher = new MemoryEventPublisher();
  return Promise.resolve({
    publisher,
    listen: (tableId, userIds) => {
      const deliveries: Delivery[] = [];
      const unprefixed = redisKeys('');
      const channels = new Set([unprefixed.table(tableId), ...userIds.map((u) => unprefixed.userAtTable(tableId, u))]);
      const stop = publisher.listen((d) => {
        if (channels.has(d.channel)) deliveries.push(d);
      });
      return Promise.resolve({ deliveries, stop: () => Promise.resolve(stop()) });
    },
  });
});

const ns = new RedisNamespace('event-publisher-conformance');
afterAll(() => ns.close());

describeEventPublisher('redis', () => {
  const prefix = ns.prefix();
  const keys = redisKeys(prefix);
  const connection = ns.redis.duplicate();
  const subscriber = new ChannelSubscriber(connection);
  return Promise.resolve({
    publisher: new RedisEventPublisher(ns.redis, prefix),
    listen: async (tableId, userIds) => {
      const deliveries: Delivery[] = [];
      const onMessage = (message: string, channel: string) =>
        deliveries.push({ channel: channel.slice(prefix.length), envelope: decodeEnvelope(channel, message) });
      const offs = await Promise.all(
        [keys.table(tableId), ...userIds.map((u) => keys.userAtTable(tableId, u))].map((c) =>
          subscriber.subscribe(c, onMessage),
        ),
      );
      return { deliveries, stop: async () => void (await Promise.all(offs.map((off) => off()))) };
    },
    close: () => closeRedis(connection),
  });
});
