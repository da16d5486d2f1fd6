// What a gateway sends its sockets for each envelope a worker publishes: the worker's own text of the
// message when the envelope ends with it (the worker writes a snapshot's canonical text once, and the
// gateway does not encode it again), the message encoded again for any other layout, and nothing for
// an envelope that does not decode. Real Redis pub/sub; the sockets are the deliveries recorded.
import { randomBytes } from 'node:crypto';
import {
  ChannelSubscriber,
  createLogger,
  createRedis,
  encodeEnvelopeAround,
  redisKeys,
  type Redis,
} from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChannelSubscriptions } from '../src/channel-subscriptions.js';
import { ConnectionIndex, type ClientConnection } from '../src/connection-index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TABLE = `table-${randomBytes(4).toString('hex')}`;

let pub: Redis;
let subRedis: Redis;

beforeAll(() => {
  pub = createRedis(REDIS_URL, { name: 'channel-delivery-test' });
  subRedis = createRedis(REDIS_URL, { name: 'channel-delivery-test-sub', maxRetriesPerRequest: null });
});

afterAll(() => {
  pub?.disconnect();
  subRedis?.disconnect();
});

function rig() {
  const prefix = `felt-delivery-${randomBytes(4).toString('hex')}:`;
  const delivered: { userId: string; text: string }[] = [];
  const index = new ConnectionIndex();
  const channels = new ChannelSubscriptions<ClientConnection>({
    subscriber: new ChannelSubscriber(subRedis),
    keys: redisKeys(prefix),
    index,
    logger: createLogger('gateway', { level: 'silent' }),
    deliver: (conn, text) => delivered.push({ userId: conn.userId, text }),
    dropRate: 0,
    onDropped: () => undefined,
    onReattach: () => undefined,
  });
  for (const userId of ['u1', 'u2']) {
    const conn: ClientConnection = {
      id: `c-${userId}`,
      userId,
      sessionId: `s-${userId}`,
      name: userId,
      tables: new Map(),
    };
    index.add(conn, TABLE);
  }
  const publish = (text: string) => pub.publish(redisKeys(prefix).table(TABLE), text);
  return { channels, delivered, publish };
}

describe('delivering a published envelope', () => {
  it("sends the worker's text of the message as it is, to every recipient the envelope does not except", async () => {
    const { channels, delivered, publish } = rig();
    await channels.acquire({ kind: 'table', tableId: TABLE });
    // A snapshot's canonical text: sorted keys and a \u escape, which JSON.stringify would write otherwise.
    const text = `{"seats":[{"name":"Zo\\u00eb"}],"table_id":"${TABLE}","table_seq":7,"type":"table_state"}`;
    await publish(encodeEnvelopeAround({ table_id: TABLE, table_seq: 7, except: ['u2'] }, text));
    await vi.waitFor(() => expect(delivered).toHaveLength(1), { timeout: 5_000, interval: 10 });
    expect(delivered[0]).toEqual({ userId: 'u1', text });
    await channels.closeAll();
  });

  it('encodes the message again when it is not the last member, and drops an envelope that does not decode', async () => {
    const { channels, delivered, publish } = rig();
    await channels.acquire({ kind: 'table', tableId: TABLE });
    await publish(`{"table_id":"${TABLE}","table_seq":8,"msg":{"type":"table_state","table_seq":8}`);
    await publish(`{"msg":{"type":"chat_message","text":"Zo\\u00eb"},"table_id":"${TABLE}","table_seq":9}`);
    await vi.waitFor(() => expect(delivered).toHaveLength(2), { timeout: 5_000, interval: 10 });
    const expected = JSON.stringify({ type: 'chat_message', text: 'Zoë' });
    expect(delivered).toEqual([
      { userId: 'u1', text: expected },
      { userId: 'u2', text: expected },
    ]);
    await channels.closeAll();
  });
});
