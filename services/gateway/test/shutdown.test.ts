// A gateway going away closes its sockets with 1001 a batch at a time, so their clients reconnect to
// the other gateways gradually; sockets still open are served until their batch. An in-process
// gateway against the real Redis, with real WebSocket clients.
import { randomBytes } from 'node:crypto';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  RingView,
  signSessionToken,
  revocationsLoadedKey,
  type Redis,
} from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { GatewayCloseCode } from '../src/close-codes.js';
import { Gateway } from '../src/gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 's'.repeat(40);
const prefix = `test:${randomBytes(6).toString('hex')}:`;
let redis: Redis;
let sub: Redis;
let ring: RingView;

beforeAll(async () => {
  redis = createRedis(REDIS_URL, { name: 'shutdown-test' });
  sub = createRedis(REDIS_URL, { name: 'shutdown-test-sub', maxRetriesPerRequest: null });
  await redis.set(revocationsLoadedKey(prefix), '1');
  ring = new RingView({ redis, subscriber: new ChannelSubscriber(sub), prefix, refreshMs: 60_000 });
  await ring.start();
});

afterAll(async () => {
  await ring?.stop();
  await redis.del(revocationsLoadedKey(prefix));
  await closeRedis(sub);
  await closeRedis(redis);
});

interface Client {
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number }>;
}

async function connect(port: number, userId: string): Promise<Client> {
  const token = await signSessionToken(SECRET, { userId, sessionId: `s-${userId}`, name: 'U', expiresAt: 4e9 });
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie: `felt_session=${token}` } });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number }>((resolve) =>
    ws.on('close', (code) => {
      closes.push(userId);
      resolve({ code });
    }),
  );
  await new Promise((res, rej) => {
    ws.once('open', res);
    ws.once('unexpected-response', () => rej(new Error('upgrade refused')));
  });
  return { ws, closed };
}

/** The users whose sockets were seen to close, in order. */
const closes: string[] = [];

describe('gateway shutdown', () => {
  it('closes every socket with 1001, in batches: a later batch is still open when an earlier one has closed', async () => {
    const gateway = new Gateway({
      gatewayId: 'gw-shutdown',
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      prefix,
      allowedOrigins: [],
      maxPayload: 1024,
      ratePerSec: 1000,
      rateBurst: 1000,
      maxSocketsPerUser: 4,
      maxSocketsPerAddress: 64,
      maxTablesPerSocket: 2,
      trustProxyHops: 0,
      debugEndpoints: false,
      redis,
      subscriber: new ChannelSubscriber(sub),
      ring,
      metricsRegistry: createMetricsRegistry('gateway'),
      logger: createLogger('gateway', { level: 'silent' }),
      sessionCheckMs: 60_000,
      closeBatch: 2,
      // Long enough that a batch's closes always arrive before the next batch is sent.
      closeIntervalMs: 1_000,
    });
    const port = await gateway.start();
    const clients = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((u) => connect(port, u)));

    const stopped = gateway.stop();
    // The first batch: two sockets close while the other three are still open.
    await Promise.race(clients.map((c) => c.closed));
    const firstBatch = await waitForCloses(2);
    expect(firstBatch).toBe(2);
    expect(clients.filter((c) => c.ws.readyState === WebSocket.OPEN)).toHaveLength(3);
    await stopped;

    const results = await Promise.all(clients.map((c) => c.closed));
    expect(results.map((r) => r.code)).toEqual(Array(5).fill(GatewayCloseCode.GOING_AWAY));
    expect(closes).toHaveLength(5);
  });
});

/** Resolves with how many sockets have closed once at least `n` have (event-driven polling). */
async function waitForCloses(n: number): Promise<number> {
  while (closes.length < n) await new Promise((r) => setImmediate(r));
  return closes.length;
}
