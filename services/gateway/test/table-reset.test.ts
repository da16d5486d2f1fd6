// A table built again without its attachments (its worker found no checkpoint: Redis lost its data)
// publishes a `control: "reattach"` envelope on its channel. The gateway delivers it to no socket and
// attaches again every connection it holds as attached to that table, so that the new table counts
// them as connected (it deals only to a table with a connected human) and sends them its events.
// Without it they heard nothing until their SDK's 25 s silence watch resynced.
import { randomBytes } from 'node:crypto';
import {
  ChannelSubscriber,
  createLogger,
  createRedis,
  encodeEnvelope,
  redisKeys,
  type Redis,
  type RingMember,
  type RingView,
} from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChannelSubscriptions } from '../src/channel-subscriptions.js';
import { ConnectionIndex, type Attachment } from '../src/connection-index.js';
import type { GatewayMetrics } from '../src/metrics.js';
import { TableRequests, type TableClient } from '../src/table-requests.js';
import type { WorkerAnswer } from '../src/worker-link.js';
import type { RoutedAnswer, WorkerRouter } from '../src/worker-router.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TABLE = `table-${randomBytes(4).toString('hex')}`;
const silent = createLogger('gateway', { level: 'silent' });

type Conn = TableClient & { closed: boolean };

function member(id: string): RingMember {
  return { id, addr: `${id}:1`, httpAddr: '', startedAt: 0, draining: false };
}

let pub: Redis;
let subRedis: Redis;

beforeAll(() => {
  pub = createRedis(REDIS_URL, { name: 'table-reset-test' });
  subRedis = createRedis(REDIS_URL, { name: 'table-reset-test-sub', maxRetriesPerRequest: null });
});

afterAll(() => {
  pub?.disconnect();
  subRedis?.disconnect();
});

/** The gateway's channel and table parts on real Redis pub/sub, with a worker the test answers for. */
function rig(prefix: string) {
  const asked: { workerId: string; answer: (a: WorkerAnswer) => void }[] = [];
  const delivered: { conn: string; text: string }[] = [];
  const ring = { ownerOf: () => member('wa') } as unknown as RingView;
  const router = {
    link: () => ({ state: 'open', generation: 7 }),
    request: () =>
      new Promise<RoutedAnswer>((resolve) => {
        asked.push({
          workerId: 'wa',
          answer: (answer) => resolve({ answer, workerId: 'wa', linkGeneration: 7, retried: false }),
        });
      }),
  } as unknown as WorkerRouter;
  const index = new ConnectionIndex();
  const holder: { requests?: TableRequests<Conn> } = {};
  const channels = new ChannelSubscriptions<Conn>({
    subscriber: new ChannelSubscriber(subRedis),
    keys: redisKeys(prefix),
    index,
    logger: silent,
    deliver: (conn, text) => delivered.push({ conn: conn.id, text }),
    dropRate: 0,
    onDropped: () => undefined,
    onReattach: (tableId) => holder.requests!.reattachTable(tableId),
  });
  holder.requests = new TableRequests<Conn>({
    gatewayId: 'g1',
    ring,
    router,
    index,
    channels,
    metrics: {
      notOwnerRetries: { inc: () => undefined },
      requestSeconds: { observe: () => undefined },
    } as unknown as GatewayMetrics,
    logger: silent,
    maxTablesPerSocket: 8,
    send: () => undefined,
    sendError: () => undefined,
  });
  const connect = (id: string, att: Attachment): Conn => {
    const conn: Conn = {
      id,
      userId: `u-${id}`,
      sessionId: `s-${id}`,
      name: id,
      tables: new Map([[TABLE, att]]),
      closed: false,
    };
    index.add(conn, TABLE);
    return conn;
  };
  return { requests: holder.requests, channels, asked, delivered, connect };
}

const ack: WorkerAnswer = { kind: 'ack', atTableSeq: 10, replies: [] };

describe('a table rebuilt without its attachments', () => {
  it('a reattach notice on the table channel re-attaches every attached connection and reaches no socket', async () => {
    const prefix = `felt-reset-${randomBytes(4).toString('hex')}:`;
    const { requests, channels, asked, delivered, connect } = rig(prefix);
    // Both attached at the ring's owner on the current stream: nothing else would ever re-attach them.
    const a = connect('c1', { state: 'attached', workerId: 'wa', linkGeneration: 7, spectate: false });
    const b = connect('c2', { state: 'attached', workerId: 'wa', linkGeneration: 7, spectate: true });
    // One whose attach is still in flight reaches the table as it is now: left alone.
    const c = connect('c3', { state: 'attaching', workerId: undefined, linkGeneration: 0, spectate: false });
    await channels.acquire({ kind: 'table', tableId: TABLE });
    requests.reconcile();
    expect(asked).toHaveLength(0);

    const keys = redisKeys(prefix);
    const notice = encodeEnvelope({
      table_id: TABLE,
      table_seq: 1_800_000_000_000,
      control: 'reattach',
      msg: { type: 'table_reset', table_id: TABLE, table_seq: 1_800_000_000_000 },
    });
    // A notice for another table on this channel is not this table's.
    await pub.publish(keys.table(TABLE), notice.replaceAll(TABLE, 'another-table'));
    await pub.publish(keys.table(TABLE), notice);
    await vi.waitFor(() => expect(asked).toHaveLength(2), { timeout: 5_000, interval: 10 });
    expect(a.tables.get(TABLE)!.state).toBe('attaching');
    expect(b.tables.get(TABLE)!.state).toBe('attaching');
    expect(c.tables.get(TABLE)!.state).toBe('attaching');
    for (const x of asked) x.answer(ack);
    await vi.waitFor(() => {
      expect(a.tables.get(TABLE)).toMatchObject({ state: 'attached', workerId: 'wa' });
      expect(b.tables.get(TABLE)).toMatchObject({ state: 'attached', workerId: 'wa', spectate: true });
    });

    // An ordinary event after it is delivered; the notice never was.
    await pub.publish(
      keys.table(TABLE),
      encodeEnvelope({
        table_id: TABLE,
        table_seq: 1_800_000_000_001,
        msg: { type: 'table_heartbeat', table_id: TABLE, table_seq: 1_800_000_000_001 },
      }),
    );
    await vi.waitFor(() => expect(delivered.length).toBeGreaterThanOrEqual(3), { timeout: 5_000, interval: 10 });
    expect(delivered.every((d) => !d.text.includes('table_reset'))).toBe(true);
    expect(asked).toHaveLength(2);
    requests.stop();
    await channels.closeAll();
  });
});
