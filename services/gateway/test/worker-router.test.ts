import { randomBytes } from 'node:crypto';
import { Server, ServerCredentials, type ServerDuplexStream } from '@grpc/grpc-js';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createRedis,
  RingView,
  WorkerRegistry,
  type Redis,
} from '@felt/platform';
import {
  HealthResponse_Status,
  TableServiceService,
  type GatewayFrame,
  type TableServiceServer,
  type WorkerFrame,
} from '@felt/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WorkerRouter } from '../src/worker-router.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

type Behaviour = (tableId: string) => { notOwner?: string } | { ack: number };

/** A scripted worker: real gRPC, answers per `behaviour`, records what it was asked. */
async function fakeWorker(id: string, behaviour: Behaviour) {
  const seen: string[] = [];
  let peerAddr = '';
  const impl: TableServiceServer = {
    connect(call: ServerDuplexStream<GatewayFrame, WorkerFrame>) {
      call.on('data', (f: GatewayFrame) => {
        if (f.frame?.$case === 'hello')
          return void call.write({ frame: { $case: 'welcome', welcome: { workerId: id } } });
        if (f.frame?.$case !== 'attach') return;
        const { requestId, tableId } = f.frame.attach;
        seen.push(tableId);
        const b = behaviour(tableId);
        if ('ack' in b) {
          call.write({
            frame: {
              $case: 'reply',
              reply: {
                requestId,
                connectionId: 'c',
                tableId,
                tableSeq: b.ack,
                messageJson: Buffer.from(`{"from":"${id}"}`),
              },
            },
          });
          call.write({ frame: { $case: 'ack', ack: { requestId, tableId, atTableSeq: b.ack } } });
        } else {
          call.write({
            frame: {
              $case: 'notOwner',
              notOwner: { requestId, tableId, ownerWorkerId: b.notOwner ?? '', ownerAddr: peerAddr },
            },
          });
        }
      });
      call.on('end', () => call.end());
    },
    health: (_c, cb) => cb(null, { workerId: id, status: HealthResponse_Status.STATUS_SERVING, liveTables: 0 }),
    drain: (_c, cb) => cb(null, { workerId: id, draining: true }),
    // Gateways never send tournament messages.
    tournament: (_c, cb) => cb(null, { result: undefined }),
  };
  const server = new Server();
  server.addService(TableServiceService, impl);
  const port = await new Promise<number>((res, rej) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
  );
  return {
    id,
    addr: `127.0.0.1:${port}`,
    seen,
    setPeerAddr: (a: string) => {
      peerAddr = a;
    },
    stop: () => server.forceShutdown(),
  };
}

const attach =
  (tableId: string) =>
  (requestId: string): GatewayFrame => ({
    frame: {
      $case: 'attach',
      attach: { requestId, connectionId: 'c', userId: 'u', userName: 'U', tableId, traceContext: {}, spectate: false },
    },
  });

describe('WorkerRouter (real gRPC, real Redis)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let sub: Redis;
  let ring: RingView;
  let router: WorkerRouter;
  const registries: WorkerRegistry[] = [];
  let a: Awaited<ReturnType<typeof fakeWorker>>;
  let b: Awaited<ReturnType<typeof fakeWorker>>;
  // Worker A claims nothing; B owns everything: a gateway that asks A must end at B.
  let aOwnsInRing = '';

  beforeAll(async () => {
    redis = createRedis(REDIS_URL, { name: 'router-test' });
    sub = createRedis(REDIS_URL, { name: 'router-test-sub', maxRetriesPerRequest: null });
    a = await fakeWorker('w-a', () => ({ notOwner: 'w-b' }));
    b = await fakeWorker('w-b', (t) => (t === 'homeless' ? { notOwner: 'w-a' } : { ack: 7 }));
    a.setPeerAddr(b.addr);
    b.setPeerAddr(a.addr);
    for (const w of [a, b]) {
      const r = new WorkerRegistry({
        redis,
        prefix,
        member: { id: w.id, addr: w.addr, httpAddr: '' },
        heartbeatMs: 60_000,
        ttlMs: 60_000,
      });
      await r.start();
      registries.push(r);
    }
    ring = new RingView({ redis, subscriber: new ChannelSubscriber(sub), prefix, refreshMs: 60_000 });
    await ring.start();
    for (let i = 0; !aOwnsInRing; i++) if (ring.ownerOf(`t-${i}`)?.id === 'w-a') aOwnsInRing = `t-${i}`;
    router = new WorkerRouter({
      ring,
      gatewayId: 'gw-test',
      logger: createLogger('test', { level: 'silent' }),
      requestTimeoutMs: 3000,
      onLinkOpen: () => undefined,
    });
    router.syncLinks();
  });

  afterAll(async () => {
    router?.close();
    await ring?.stop();
    for (const r of registries) await r.stop();
    a?.stop();
    b?.stop();
    await closeRedis(sub);
    await closeRedis(redis);
  });

  it('on NOT_OWNER refreshes the ring and retries once at the owner the worker named', async () => {
    const routed = await router.request(aOwnsInRing, attach(aOwnsInRing));
    expect(routed.retried).toBe(true);
    expect(routed.workerId).toBe('w-b');
    expect(routed.answer).toMatchObject({ kind: 'ack', atTableSeq: 7 });
    expect(routed.answer.kind === 'ack' && routed.answer.replies[0]?.messageJson).toBe('{"from":"w-b"}');
    expect(a.seen).toContain(aOwnsInRing);
    expect(b.seen).toContain(aOwnsInRing);
  });

  it('gives up as unavailable after the one retry is refused too', async () => {
    // Both workers disown 'homeless' and point at each other.
    const routed = await router.request('homeless', attach('homeless'));
    expect(routed.answer.kind).toBe('unavailable');
    expect(routed.retried).toBe(true);
    expect([a.seen.includes('homeless'), b.seen.includes('homeless')]).toEqual([true, true]);
  });

  it('has a stream open to every ring member', async () => {
    await vi.waitFor(() => expect(router.openStreams()).toBe(2), { timeout: 2_000, interval: 20 });
  });
});
