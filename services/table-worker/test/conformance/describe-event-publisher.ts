import { redisKeys } from '@felt/platform';
import type { TableHeartbeat, TableMessage } from '@felt/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Delivery } from '../../src/adapters/memory-publisher.js';
import type { EventPublisher, Publication } from '../../src/ports.js';

/** Channel names without the Redis prefix, as a listener reports them. */
const ch = redisKeys('');

/** What subscribers of some channels received, in order. */
export interface Listener {
  readonly deliveries: readonly Delivery[];
  stop(): Promise<void>;
}

/** One EventPublisher adapter and a way to listen to its channels as a gateway does. */
export interface EventPublisherUnderTest {
  readonly publisher: EventPublisher;
  /** Listens on the table's channel and on each user's; resolves once listening. */
  listen(tableId: string, userIds: readonly string[]): Promise<Listener>;
  close?(): Promise<void>;
}

const closed = (tableId: string, tableSeq: number): TableMessage => ({
  type: 'table_closed',
  table_id: tableId,
  table_seq: tableSeq,
});
const heartbeat = (tableId: string, tableSeq: number): TableHeartbeat => ({
  type: 'table_heartbeat',
  table_id: tableId,
  table_seq: tableSeq,
});
const toTable = (message: Publication['message'], except: string[] = []): Publication => ({
  audience: { kind: 'table', except },
  message,
});
const toUser = (userId: string, message: Publication['message']): Publication => ({
  audience: { kind: 'user', userId },
  message,
});

/** Waits until `n` deliveries arrived (pub/sub is asynchronous), then returns them. */
async function received(listener: Listener, n: number): Promise<readonly Delivery[]> {
  await vi.waitFor(() => expect(listener.deliveries.length).toBeGreaterThanOrEqual(n), {
    timeout: 5_000,
    interval: 10,
  });
  return listener.deliveries;
}

/**
 * The EventPublisher contract (services/table-worker/src/ports.ts; docs/dev/contracts.md, the
 * envelope): each publication reaches its audience's channel only, as the envelope the gateways
 * read, in the order published.
 */
export function describeEventPublisher(adapter: string, make: () => Promise<EventPublisherUnderTest>): void {
  describe(`EventPublisher contract: ${adapter}`, () => {
    const opened: EventPublisherUnderTest[] = [];
    const listeners: Listener[] = [];
    const open = async (): Promise<EventPublisherUnderTest> => {
      const p = await make();
      opened.push(p);
      return p;
    };
    const listen = async (p: EventPublisherUnderTest, tableId: string, userIds: string[]): Promise<Listener> => {
      const l = await p.listen(tableId, userIds);
      listeners.push(l);
      return l;
    };
    afterEach(async () => {
      for (const l of listeners.splice(0)) await l.stop();
      for (const p of opened.splice(0)) await p.close?.();
    });

    it('a table publication goes to the table channel, with `except` only when someone got their own copy', async () => {
      const p = await open();
      const l = await listen(p, 't1', ['u1']);
      await p.publisher.publish('t1', [toTable(closed('t1', 4)), toTable(closed('t1', 5), ['u1', 'u2'])]);
      expect(await received(l, 2)).toEqual<Delivery[]>([
        { channel: ch.table('t1'), envelope: { table_id: 't1', table_seq: 4, msg: closed('t1', 4) } },
        {
          channel: ch.table('t1'),
          envelope: { table_id: 't1', table_seq: 5, except: ['u1', 'u2'], msg: closed('t1', 5) },
        },
      ]);
    });

    it('a user publication goes to that user’s channel only', async () => {
      const p = await open();
      const l = await listen(p, 't1', ['u1', 'u2']);
      await p.publisher.publish('t1', [toUser('u2', closed('t1', 7)), toTable(closed('t1', 8))]);
      const got = await received(l, 2);
      expect(got[0]).toEqual<Delivery>({
        channel: ch.userAtTable('t1', 'u2'),
        envelope: { table_id: 't1', table_seq: 7, msg: closed('t1', 7) },
      });
      // The table publication after it is the barrier: nothing reached u1 meanwhile.
      expect(got.map((d) => d.channel)).toEqual([ch.userAtTable('t1', 'u2'), ch.table('t1')]);
    });

    it('keeps the order of a batch, and of batches one after another, across channels', async () => {
      const p = await open();
      const l = await listen(p, 't1', ['u1', 'u2']);
      // The table actor does not wait for a batch's publish before the next one (it answers the
      // command once its checkpoint is written): the order must hold without that wait.
      const first = p.publisher.publish('t1', [
        toUser('u1', closed('t1', 1)),
        toTable(closed('t1', 1), ['u1']),
        toUser('u2', closed('t1', 2)),
      ]);
      await p.publisher.publish('t1', [toTable(closed('t1', 3)), toUser('u1', closed('t1', 4))]);
      await first;
      const got = await received(l, 5);
      expect(got.map((d) => `${d.channel}@${d.envelope.table_seq}`)).toEqual([
        `${ch.userAtTable('t1', 'u1')}@1`,
        `${ch.table('t1')}@1`,
        `${ch.userAtTable('t1', 'u2')}@2`,
        `${ch.table('t1')}@3`,
        `${ch.userAtTable('t1', 'u1')}@4`,
      ]);
    });

    it('carries heartbeats like any message, with the table_seq they name', async () => {
      const p = await open();
      const l = await listen(p, 't1', ['u1']);
      await p.publisher.publish('t1', [toUser('u1', heartbeat('t1', 12)), toTable(heartbeat('t1', 11))]);
      expect(await received(l, 2)).toEqual<Delivery[]>([
        { channel: ch.userAtTable('t1', 'u1'), envelope: { table_id: 't1', table_seq: 12, msg: heartbeat('t1', 12) } },
        { channel: ch.table('t1'), envelope: { table_id: 't1', table_seq: 11, msg: heartbeat('t1', 11) } },
      ]);
    });

    it('another table’s publications stay on that table’s channels; an empty batch publishes nothing', async () => {
      const p = await open();
      const l = await listen(p, 't1', ['u1']);
      await p.publisher.publish('t2', [toTable(closed('t2', 1)), toUser('u9', closed('t2', 2))]);
      await p.publisher.publish('t1', []);
      // A barrier on t1: once it is here, anything published before it would be too.
      await p.publisher.publish('t1', [toTable(closed('t1', 3))]);
      const got = await received(l, 1);
      expect(got).toEqual<Delivery[]>([
        { channel: ch.table('t1'), envelope: { table_id: 't1', table_seq: 3, msg: closed('t1', 3) } },
      ]);
    });
  });
}
