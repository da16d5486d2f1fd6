import { randomBytes } from 'node:crypto';
import { credentials, Server, ServerCredentials, type ClientDuplexStream } from '@grpc/grpc-js';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  decodeEnvelope,
  redisKeys,
  RingView,
  WorkerRegistry,
  type Envelope,
  type Redis,
} from '@felt/platform';
import {
  HealthResponse_Status,
  TableServiceClient,
  TableServiceService,
  type GatewayFrame,
  type WorkerFrame,
} from '@felt/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableDirectory } from '../src/actor/table-directory.js';
import { RedisCheckpointStore } from '../src/adapters/redis-checkpoint-store.js';
import { RedisEventPublisher } from '../src/adapters/redis-publisher.js';
import { cryptoRandom, systemClock, timerScheduler } from '../src/adapters/system.js';
import { DEFAULT_TIMING_OVERRIDES } from '../src/table/timing.js';
import { MemoryHands } from './support/fakes.js';
import { createTableService } from '../src/grpc/table-service.js';
import { createWorkerMetrics } from '../src/metrics.js';
import type { TableSeed, TableSeedSource } from '../src/ports.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

class MemorySeeds implements TableSeedSource {
  constructor(readonly rooms: Map<string, TableSeed>) {}
  load(id: string) {
    return Promise.resolve(this.rooms.get(id) ?? null);
  }
}

function requestIdOf(f: WorkerFrame): string | undefined {
  switch (f.frame?.$case) {
    case 'ack':
      return f.frame.ack.requestId;
    case 'error':
      return f.frame.error.requestId;
    case 'notOwner':
      return f.frame.notOwner.requestId;
    case 'reply':
      return f.frame.reply.requestId;
    default:
      return undefined;
  }
}

/** A gateway-side test client over one Connect stream. */
class StreamClient {
  readonly frames: WorkerFrame[] = [];
  private readonly waiters: (() => void)[] = [];
  constructor(readonly stream: ClientDuplexStream<GatewayFrame, WorkerFrame>) {
    stream.on('data', (f: WorkerFrame) => {
      this.frames.push(f);
      for (const w of this.waiters.splice(0)) w();
    });
    stream.on('error', () => undefined);
  }
  send(frame: GatewayFrame) {
    this.stream.write(frame);
  }
  /** The frames answering `requestId`, up to and including its ack/error/not_owner. */
  async answer(requestId: string): Promise<WorkerFrame[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const mine = this.frames.filter((f) => requestIdOf(f) === requestId);
      if (mine.some((f) => f.frame?.$case !== 'reply')) return mine;
      if (Date.now() > deadline) throw new Error(`no answer to ${requestId}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }
}

describe('worker gRPC service (real Redis, in-process worker)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const keys = redisKeys(prefix);
  let redis: Redis;
  let subRedis: Redis;
  let server: Server;
  let client: TableServiceClient;
  let self: WorkerRegistry;
  let other: WorkerRegistry;
  let ring: RingView;
  let mineTable = '';
  let theirsTable = '';
  const rooms = new Map<string, TableSeed>();

  beforeAll(async () => {
    redis = createRedis(REDIS_URL, { name: 'svc-test' });
    subRedis = createRedis(REDIS_URL, { name: 'svc-test-sub', maxRetriesPerRequest: null });
    const subscriber = new ChannelSubscriber(subRedis);
    ring = new RingView({ redis, subscriber, prefix, refreshMs: 60_000 });
    server = new Server();
    const port = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    self = new WorkerRegistry({
      redis,
      prefix,
      member: { id: 'w-self', addr: `127.0.0.1:${port}`, httpAddr: '127.0.0.1:1' },
      heartbeatMs: 60_000,
      ttlMs: 60_000,
    });
    other = new WorkerRegistry({
      redis,
      prefix,
      member: { id: 'w-other', addr: '127.0.0.1:1', httpAddr: '127.0.0.1:2' },
      heartbeatMs: 60_000,
      ttlMs: 60_000,
    });
    await self.start();
    await other.start();
    await ring.start();
    for (let i = 0; !mineTable || !theirsTable; i++) {
      const id = `table-${i}`;
      if (ring.ownerOf(id)?.id === 'w-self') mineTable ||= id;
      else theirsTable ||= id;
    }
    rooms.set(mineTable, {
      roomId: mineTable,
      status: 'open',
      seatCount: 2,
      members: [
        { userId: 'ann', name: 'Ann', seat: 1, stack: 100 },
        { userId: 'bob', name: 'Bob', seat: 2, stack: 100 },
      ],
    });
    const logger = createLogger('test', { level: 'silent' });
    const directory = new TableDirectory({
      seeds: new MemorySeeds(rooms),
      checkpoints: new RedisCheckpointStore(redis, prefix),
      publisher: new RedisEventPublisher(redis, prefix),
      hands: new MemoryHands(),
      clock: systemClock,
      scheduler: timerScheduler(),
      random: cryptoRandom,
      // No hand starts during these tests: they are about the service, not the game.
      timing: { ...DEFAULT_TIMING_OVERRIDES, handPauseMs: 600_000 },
      bot: { iterations: 10 },
      logger,
      idleMs: 60_000,
    });
    const metrics = createWorkerMetrics(createMetricsRegistry('test'), () => directory.size);
    server.addService(
      TableServiceService,
      createTableService({ workerId: 'w-self', directory, ring, registry: self, metrics, logger }),
    );
    client = new TableServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    server?.forceShutdown();
    await ring?.stop();
    await self?.stop();
    await other?.stop();
    const leftover = await redis.keys(`${prefix}*`);
    if (leftover.length) await redis.del(...leftover);
    await closeRedis(subRedis);
    await closeRedis(redis);
  });

  function open(): StreamClient {
    const c = new StreamClient(client.connect());
    c.send({ frame: { $case: 'hello', hello: { gatewayId: 'gw-test' } } });
    return c;
  }

  const command = (
    requestId: string,
    connectionId: string,
    userId: string,
    tableId: string,
    body: unknown,
  ): GatewayFrame => ({
    frame: {
      $case: 'command',
      command: {
        requestId,
        connectionId,
        userId,
        tableId,
        commandJson: Buffer.from(JSON.stringify(body)),
        traceContext: {},
      },
    },
  });

  const attach = (requestId: string, connectionId: string, userId: string, tableId: string): GatewayFrame => ({
    frame: {
      $case: 'attach',
      attach: { requestId, connectionId, userId, userName: userId, tableId, traceContext: {} },
    },
  });

  it('welcomes, attaches a member with a snapshot reply then an ack, and publishes per viewer', async () => {
    const sub = createRedis(REDIS_URL, { name: 'svc-test-watch' });
    const got: { channel: string; env: Envelope }[] = [];
    sub.on('message', (channel: string, text: string) => got.push({ channel, env: decodeEnvelope(channel, text) }));
    await sub.subscribe(keys.table(mineTable), keys.user('ann'));
    const c = open();
    c.send(attach('r1', 'conn-ann', 'ann', mineTable));
    const frames = await c.answer('r1');
    expect(c.frames[0]?.frame).toEqual({ $case: 'welcome', welcome: { workerId: 'w-self' } });
    expect(frames.map((f) => f.frame?.$case)).toEqual(['reply', 'ack']);
    const reply = frames[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>;
    const snapshot = JSON.parse(Buffer.from(reply.reply.messageJson).toString()) as {
      seats: { status: string }[];
      table_seq: number;
      hero?: { seat: number };
    };
    expect(reply.reply.connectionId).toBe('conn-ann');
    expect(snapshot.seats.map((s) => s.status)).toEqual(['active', 'disconnected']);
    expect(snapshot.hero?.seat).toBe(1);
    const ack = frames[1]!.frame as Extract<WorkerFrame['frame'], { $case: 'ack' }>;
    expect(ack.ack.tableSeq).toBe(snapshot.table_seq);

    for (let i = 0; i < 50 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got.map((g) => g.channel)).toEqual([keys.user('ann')]);

    // A spectator joins through a command frame: the table channel now carries its view,
    // excepting Ann, who has her own.
    got.length = 0;
    c.send(command('r1s', 'conn-spec', 'sam', mineTable, { type: 'join_table', table_id: mineTable, spectate: true }));
    const spec = await c.answer('r1s');
    const specSnap = JSON.parse(
      Buffer.from((spec[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>).reply.messageJson).toString(),
    ) as { hero?: unknown };
    expect(specSnap.hero).toBeUndefined();
    for (let i = 0; i < 50 && !got.some((g) => g.channel === keys.table(mineTable)); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(got.find((g) => g.channel === keys.table(mineTable))!.env.except).toEqual(['ann']);

    // Bob watches through another gateway's stream; the first stream ending disconnects Ann (and
    // the spectator), and Bob sees it.
    await sub.subscribe(keys.user('bob'));
    const other = open();
    other.send(attach('r1b', 'conn-bob', 'bob', mineTable));
    await other.answer('r1b');
    got.length = 0;
    c.stream.end();
    const seen = async () => {
      for (let i = 0; i < 100; i++) {
        const hit = got.find(
          (g) =>
            g.channel === keys.user('bob') &&
            (g.env.msg as unknown as { seats?: { status: string }[] }).seats?.[0]?.status === 'disconnected',
        );
        if (hit) return hit.env;
        await new Promise((r) => setTimeout(r, 20));
      }
      return undefined;
    };
    const after = await seen();
    expect(after?.table_seq).toBeGreaterThan(snapshot.table_seq);
    other.stream.end();
    await closeRedis(sub);
  });

  it('applies a client command and answers a refused one with its full error, then the error frame', async () => {
    const c = open();
    c.send(attach('c1', 'conn-ann3', 'ann', mineTable));
    await c.answer('c1');
    c.send(command('c2', 'conn-ann3', 'ann', mineTable, { type: 'sit_out', table_id: mineTable, command_id: 'so1' }));
    const ok = await c.answer('c2');
    expect(ok.map((f) => f.frame?.$case)).toEqual(['reply', 'ack']);
    const ackMsg = JSON.parse(
      Buffer.from((ok[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>).reply.messageJson).toString(),
    ) as Record<string, unknown>;
    expect(ackMsg).toMatchObject({ type: 'ack', command_id: 'so1' });
    c.send(
      command('c3', 'conn-ann3', 'ann', mineTable, {
        type: 'action',
        table_id: mineTable,
        hand_id: '11111111-1111-4111-8111-111111111111',
        turn_token: 'AAAAAAAAAAAAAAAAAAAA',
        command_id: 'a1',
        action: 'fold',
      }),
    );
    const refused = await c.answer('c3');
    expect(refused.map((f) => f.frame?.$case)).toEqual(['reply', 'error']);
    const err = JSON.parse(
      Buffer.from(
        (refused[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>).reply.messageJson,
      ).toString(),
    ) as Record<string, unknown>;
    expect(err).toMatchObject({ type: 'error', code: 'stale_hand', command_id: 'a1' });
    expect(refused[1]!.frame).toMatchObject({ $case: 'error', error: { code: 'stale_hand' } });
    c.stream.end();
  });

  it('answers NOT_OWNER with its ring’s owner for a table it does not own', async () => {
    const c = open();
    c.send(attach('r2', 'conn-x', 'ann', theirsTable));
    const [answer] = await c.answer('r2');
    expect(answer?.frame).toEqual({
      $case: 'notOwner',
      notOwner: { requestId: 'r2', tableId: theirsTable, ownerWorkerId: 'w-other', ownerAddr: '127.0.0.1:1' },
    });
    c.stream.end();
  });

  it('refuses a non-member with a typed error and an unknown table as not found', async () => {
    const c = open();
    c.send(attach('r3', 'conn-m', 'mallory', mineTable));
    expect((await c.answer('r3'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'not_member' } });
    c.send({
      frame: {
        $case: 'command',
        command: {
          requestId: 'r4',
          connectionId: 'conn-m',
          userId: 'mallory',
          tableId: mineTable,
          commandJson: Buffer.from(JSON.stringify({ type: 'resync_request', table_id: mineTable })),
          traceContext: {},
        },
      },
    });
    expect((await c.answer('r4'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'not_joined' } });
    c.stream.end();
  });

  it('only an attach brings a table to life: detach and resync on an idle table create nothing', async () => {
    const liveTables = async () =>
      (await new Promise<{ liveTables: number }>((res, rej) => client.health({}, (e, r) => (e ? rej(e) : res(r)))))
        .liveTables;
    const idle = `${mineTable}`;
    let idleTable = '';
    for (let i = 0; !idleTable; i++) if (ring.ownerOf(`idle-${i}`)?.id === 'w-self') idleTable = `idle-${i}`;
    rooms.set(idleTable, rooms.get(idle)!);
    const before = await liveTables();
    const c = open();
    c.send({
      frame: {
        $case: 'detach',
        detach: { requestId: 'd1', connectionId: 'c', userId: 'ann', tableId: idleTable, traceContext: {} },
      },
    });
    expect((await c.answer('d1'))[0]?.frame).toEqual({
      $case: 'ack',
      ack: { requestId: 'd1', tableId: idleTable, tableSeq: 0 },
    });
    c.send({
      frame: {
        $case: 'command',
        command: {
          requestId: 'd2',
          connectionId: 'c',
          userId: 'ann',
          tableId: idleTable,
          commandJson: Buffer.from(JSON.stringify({ type: 'resync_request', table_id: idleTable })),
          traceContext: {},
        },
      },
    });
    expect((await c.answer('d2'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'not_joined' } });
    expect(await liveTables()).toBe(before);
    c.stream.end();
  });

  it('Health reports serving; Drain leaves the ring of owners', async () => {
    const health = await new Promise((res, rej) => client.health({}, (e, r) => (e ? rej(e) : res(r))));
    expect(health).toMatchObject({ workerId: 'w-self', status: HealthResponse_Status.STATUS_SERVING });
    const drained = await new Promise((res, rej) => client.drain({}, (e, r) => (e ? rej(e) : res(r))));
    expect(drained).toEqual({ workerId: 'w-self', draining: true });
    const after = await new Promise((res, rej) => client.health({}, (e, r) => (e ? rej(e) : res(r))));
    expect(after).toMatchObject({ status: HealthResponse_Status.STATUS_DRAINING });
    const c = open();
    c.send(attach('r5', 'conn-ann2', 'ann', mineTable));
    expect((await c.answer('r5'))[0]?.frame).toMatchObject({
      $case: 'notOwner',
      notOwner: { ownerWorkerId: 'w-other' },
    });
    c.stream.end();
  });
});
