// The services' Redis connection through Sentinel (`REDIS_URL=redis+sentinel://…`), against a primary,
// a replica and three Sentinels of the test's own (test/harness/private-sentinel.ts): a client follows
// the master through a failover, a write the demoted primary refuses is sent again to the new one,
// and a subscriber hears what is published after it.
import { createRedis, ReplicationLagError, replicated, type Redis } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateSentinelGroup } from './harness/private-sentinel.js';
import { waitFor } from './harness/wait.js';

let group: PrivateSentinelGroup;
const clients: Redis[] = [];

beforeAll(async () => {
  group = await PrivateSentinelGroup.start();
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await group?.stop();
});

function connect(name: string): Redis {
  const client = createRedis(group.url, { name, maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

describe('Redis through Sentinel', () => {
  it('confirms a write once a replica holds it, and says so when too few do', async () => {
    const writer = connect('test-sentinel-wait');
    await writer.set('confirmed', '1');
    await replicated(writer, { replicas: 1, timeoutMs: 5_000 });
    await writer.set('unconfirmable', '1');
    await expect(replicated(writer, { replicas: 2, timeoutMs: 100 })).rejects.toBeInstanceOf(ReplicationLagError);
    await expect(replicated(writer, { replicas: 2, timeoutMs: 100 })).rejects.toMatchObject({
      code: 'redis_not_replicated',
      wanted: 2,
      confirmed: 1,
    });
  });

  it(
    'follows the master through a failover: writes go on, confirmed ones survive, subscribers hear what comes after',
    { timeout: 90_000 },
    async () => {
      const writer = connect('test-sentinel-writer');
      const sub = connect('test-sentinel-sub');
      const heard: string[] = [];
      sub.on('message', (_channel: string, message: string) => heard.push(message));
      await sub.subscribe('sentinel-test');

      // Keep counting through the failover. A count the replica confirmed (WAIT) is kept by the new
      // master; one only the old master held may be lost with it (asynchronous replication), which
      // is why the worker answers a command only once its checkpoint is confirmed
      // (FELT_REDIS_WAIT_REPLICAS).
      let stop = false;
      let confirmed = 0;
      let answered = 0;
      const writes = (async () => {
        while (!stop) {
          const value = await writer.incr('counter');
          answered++;
          try {
            await replicated(writer, { replicas: 1, timeoutMs: 500 });
            confirmed = Math.max(confirmed, value);
          } catch (err) {
            // Not confirmed in time (the replica is being promoted): not counted as kept.
            if (!(err instanceof ReplicationLagError)) throw err;
          }
        }
      })();
      await waitFor('some writes before the failover', () => answered > 50, 10_000, 5);
      const { from, to } = await group.failover();
      expect(to).not.toBe(from);
      await waitFor(
        'the writer on the new master',
        async () => Number(/tcp_port:(\d+)/.exec(await writer.info('server'))?.[1]) === to,
        30_000,
        100,
      );
      const afterSwitch = answered;
      await waitFor('writes after the switch', () => answered > afterSwitch + 50, 10_000, 5);
      stop = true;
      await writes;
      const confirmedAtEnd = confirmed;
      expect(Number(await writer.get('counter'))).toBeGreaterThanOrEqual(confirmedAtEnd);
      expect(confirmedAtEnd).toBeGreaterThan(0);

      await waitFor(
        'the subscriber hearing a publication made on the new master',
        async () => {
          await writer.publish('sentinel-test', `after-${to}`);
          return heard.includes(`after-${to}`);
        },
        30_000,
        200,
      );
    },
  );
});
