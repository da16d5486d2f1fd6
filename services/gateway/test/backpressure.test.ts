import { randomBytes } from 'node:crypto';
import { Server, ServerCredentials, type ServerDuplexStream } from '@grpc/grpc-js';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  RingView,
  signSessionToken,
  WorkerRegistry,
  type Redis,
  type Registry,
  revocationsLoadedKey,
} from '@felt/platform';
import {
  HealthResponse_Status,
  TableServiceService,
  type GatewayFrame,
  type TableServiceServer,
  type WorkerFrame,
} from '@felt/proto';
import { CloseCode } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { Gateway } from '../src/gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 's'.repeat(40);
/** Each resync is answered with this much JSON, so a reader that stops reading falls behind fast. */
const PAD = 'x'.repeat(256 * 1024);

/** A worker that attaches anyone and answers every resync with a large snapshot. */
function bulkyWorker(): TableServiceServer {
  return {
    connect(call: ServerDuplexStream<GatewayFrame, WorkerFrame>) {
      let seq = 0;
      call.on('data', (f: GatewayFrame) => {
        const frame = f.frame;
        if (frame?.$case === 'hello')
          return void call.write({ frame: { $case: 'welcome', welcome: { workerId: 'w-bulk' } } });
        if (frame?.$case !== 'attach' && frame?.$case !== 'command') return;
        const r = frame.$case === 'attach' ? frame.attach : frame.command;
        seq++;
        const msg = { type: 'table_state', table_id: r.tableId, table_seq: seq, pad: PAD };
        call.write({
          frame: {
            $case: 'reply',
            reply: {
              requestId: r.requestId,
              connectionId: r.connectionId,
              tableId: r.tableId,
              tableSeq: seq,
              messageJson: Buffer.from(JSON.stringify(msg)),
            },
          },
        });
        call.write({ frame: { $case: 'ack', ack: { requestId: r.requestId, tableId: r.tableId, atTableSeq: seq } } });
      });
      call.on('end', () => call.end());
    },
    health: (_c, cb) => cb(null, { workerId: 'w-bulk', status: HealthResponse_Status.STATUS_SERVING, liveTables: 0 }),
    drain: (_c, cb) => cb(null, { workerId: 'w-bulk', draining: true }),
    // Gateways never send tournament messages.
    tournament: (_c, cb) => cb(null, { result: undefined }),
  };
}

describe('gateway backpressure (in-process gateway, real Redis and gRPC)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let sub: Redis;
  let server: Server;
  let registry: WorkerRegistry;
  let ring: RingView;
  let gateway: Gateway;
  let metrics: Registry;
  let port = 0;

  beforeAll(async () => {
    redis = createRedis(REDIS_URL, { name: 'bp-test' });
    sub = createRedis(REDIS_URL, { name: 'bp-test-sub', maxRetriesPerRequest: null });
    // A lobby has loaded the revocation keys: the list is complete, so sessions are accepted.
    await redis.set(revocationsLoadedKey(prefix), '1');
    server = new Server();
    server.addService(TableServiceService, bulkyWorker());
    const grpcPort = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    registry = new WorkerRegistry({
      redis,
      prefix,
      member: { id: 'w-bulk', addr: `127.0.0.1:${grpcPort}`, httpAddr: '' },
      heartbeatMs: 60_000,
      ttlMs: 60_000,
    });
    await registry.start();
    const subscriber = new ChannelSubscriber(sub);
    ring = new RingView({ redis, subscriber, prefix, refreshMs: 60_000 });
    await ring.start();
    gateway = new Gateway({
      gatewayId: 'gw-bp',
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      prefix,
      allowedOrigins: [],
      maxPayload: 16384,
      // The limit under test is backpressure, not the rate.
      ratePerSec: 100_000,
      rateBurst: 100_000,
      maxSocketsPerUser: 16,
      maxSocketsPerAddress: 64,
      maxTablesPerSocket: 16,
      trustProxyHops: 0,
      debugEndpoints: false,
      redis,
      subscriber,
      ring,
      metricsRegistry: (metrics = createMetricsRegistry('gateway')),
      logger: createLogger('gateway', { level: 'silent' }),
      sessionCheckMs: 60_000,
    });
    port = await gateway.start();
    await vi.waitFor(() => expect(gateway.ready().ready, 'the gateway has a stream to the worker').toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await ring?.stop();
    await registry?.stop();
    server?.forceShutdown();
    await closeRedis(sub);
    await closeRedis(redis);
  });

  it('closes a socket that stops reading once its buffer passes the limit (4013), after what it had queued', async () => {
    const token = await signSessionToken(SECRET, { userId: 'u1', sessionId: 's1', name: 'U', expiresAt: 4e9 });
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie: `felt_session=${token}` } });
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('error', rej);
    });
    let received = 0;
    const joined = new Promise<void>((resolve) => ws.once('message', () => resolve()));
    ws.on('message', () => received++);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ type: 'join_table', table_id: 't1' }));
    await joined;
    // Stop reading: the kernel buffers fill, then the gateway's own buffer grows.
    const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    for (let i = 0; i < 200; i++) ws.send(JSON.stringify({ type: 'resync_request', table_id: 't1' }));
    // Read again once the gateway has decided (however loaded the machine is).
    const slowCloses = async () =>
      (await metrics.getSingleMetric('felt_gateway_server_closes_total')?.get())?.values.find(
        (v) => v.labels.code === String(CloseCode.SLOW_CONSUMER),
      )?.value ?? 0;
    await vi.waitFor(async () => expect(await slowCloses()).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
    socket.resume();
    expect(await closed).toBe(CloseCode.SLOW_CONSUMER);
    // It was cut off: far fewer than the 201 snapshots it asked for arrived.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(201);
    expect(gateway.ready().ready).toBe(true);
  });
});
