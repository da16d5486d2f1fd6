import { randomBytes } from 'node:crypto';
import { credentials, Server, ServerCredentials, status, type ClientDuplexStream } from '@grpc/grpc-js';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  decodeEnvelope,
  redisKeys,
  ReplicationLagError,
  RingView,
  WorkerRegistry,
  type Envelope,
  type Redis,
} from '@felt/platform';
import {
  ActionType,
  HealthResponse_Status,
  TableServiceClient,
  TableServiceService,
  type ClientCommand,
  type GatewayFrame,
  type WorkerFrame,
} from '@felt/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
const DRAIN_TOKEN = 'drain-token-of-this-test-worker';

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
  constructor(readonly stream: ClientDuplexStream<GatewayFrame, WorkerFrame>) {
    stream.on('data', (f: WorkerFrame) => this.frames.push(f));
    stream.on('error', () => undefined);
  }
  send(frame: GatewayFrame) {
    this.stream.write(frame);
  }
  /** The frames answering `requestId`, up to and including its ack/error/not_owner. */
  answer(requestId: string): Promise<WorkerFrame[]> {
    return vi.waitFor(
      () => {
        const mine = this.frames.filter((f) => requestIdOf(f) === requestId);
        if (!mine.some((f) => f.frame?.$case !== 'reply')) throw new Error(`no answer to ${requestId} yet`);
        return mine;
      },
      { timeout: 5_000, interval: 10 },
    );
  }
}

const replyMessage = (f: WorkerFrame | undefined): Record<string, unknown> =>
  JSON.parse(
    Buffer.from((f?.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>).reply.messageJson).toString(),
  ) as Record<string, unknown>;

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
  /** While set, every checkpoint is written but not confirmed by the replicas (a Redis failing over). */
  let unconfirmed = false;
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
      checkpoints: ((store) => ({
        load: (tableId: string) => store.load(tableId),
        mark: (tableId: string) => store.mark(tableId),
        save: async (...args: Parameters<RedisCheckpointStore['save']>) => {
          await store.save(...args);
          if (unconfirmed) throw new ReplicationLagError(1, 0);
        },
      }))(new RedisCheckpointStore(redis, prefix)),
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
      createTableService({
        workerId: 'w-self',
        directory,
        ring,
        registry: self,
        metrics,
        logger,
        drainToken: DRAIN_TOKEN,
      }),
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
    typed: Pick<ClientCommand, 'command'> & { commandId?: string },
  ): GatewayFrame => ({
    frame: {
      $case: 'command',
      command: { requestId, connectionId, userId, tableId, traceContext: {}, ...typed },
    },
  });

  const attach = (
    requestId: string,
    connectionId: string,
    userId: string,
    tableId: string,
    spectate = false,
  ): GatewayFrame => ({
    frame: {
      $case: 'attach',
      attach: { requestId, connectionId, userId, userName: userId, tableId, traceContext: {}, spectate },
    },
  });

  const resync = (requestId: string, connectionId: string, userId: string, tableId: string): GatewayFrame =>
    command(requestId, connectionId, userId, tableId, { command: { $case: 'resync', resync: {} } });

  it('welcomes, attaches a member with a snapshot reply then an ack, and publishes per viewer', async () => {
    const sub = createRedis(REDIS_URL, { name: 'svc-test-watch' });
    const got: { channel: string; env: Envelope }[] = [];
    sub.on('message', (channel: string, text: string) => got.push({ channel, env: decodeEnvelope(channel, text) }));
    await sub.subscribe(keys.table(mineTable), keys.userAtTable(mineTable, 'ann'));
    const c = open();
    c.send(attach('r1', 'conn-ann', 'ann', mineTable));
    const frames = await c.answer('r1');
    expect(c.frames[0]?.frame).toEqual({ $case: 'welcome', welcome: { workerId: 'w-self' } });
    expect(frames.map((f) => f.frame?.$case)).toEqual(['reply', 'ack']);
    const reply = frames[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'reply' }>;
    const snapshot = replyMessage(frames[0]) as {
      seats: { status: string }[];
      table_seq: number;
      hero?: { seat: number };
    };
    expect(reply.reply.connectionId).toBe('conn-ann');
    expect(snapshot.seats.map((s) => s.status)).toEqual(['active', 'disconnected']);
    expect(snapshot.hero?.seat).toBe(1);
    const ack = frames[1]!.frame as Extract<WorkerFrame['frame'], { $case: 'ack' }>;
    expect(ack.ack.atTableSeq).toBe(snapshot.table_seq);

    await vi.waitFor(() => expect(got.length).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });
    expect(got.map((g) => g.channel)).toEqual([keys.userAtTable(mineTable, 'ann')]);

    // A spectator attaches with spectate: the table channel now carries its view, excepting Ann,
    // who has her own.
    got.length = 0;
    c.send(attach('r1s', 'conn-spec', 'sam', mineTable, true));
    const spec = await c.answer('r1s');
    expect(spec.map((f) => f.frame?.$case)).toEqual(['reply', 'ack']);
    expect(replyMessage(spec[0]).hero).toBeUndefined();
    const tableChannel = await vi.waitFor(
      () => {
        const hit = got.find((g) => g.channel === keys.table(mineTable));
        if (!hit) throw new Error('nothing on the table channel yet');
        return hit;
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(tableChannel.env.except).toEqual(['ann']);
    // A non-member attaching without spectate is not let in.
    c.send(attach('r1m', 'conn-spec2', 'sam', mineTable));
    expect((await c.answer('r1m'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'not_member' } });

    // Bob watches through another gateway's stream; the first stream ending disconnects Ann (and
    // the spectator), and Bob sees it.
    await sub.subscribe(keys.userAtTable(mineTable, 'bob'));
    const other = open();
    other.send(attach('r1b', 'conn-bob', 'bob', mineTable));
    await other.answer('r1b');
    got.length = 0;
    c.stream.end();
    const after = await vi.waitFor(
      () => {
        const hit = got.find(
          (g) =>
            g.channel === keys.userAtTable(mineTable, 'bob') &&
            (g.env.msg as unknown as { seats?: { status: string }[] }).seats?.[0]?.status === 'disconnected',
        );
        if (!hit) throw new Error('Bob has not seen Ann disconnected yet');
        return hit.env;
      },
      { timeout: 5_000, interval: 10 },
    );
    expect(after.table_seq).toBeGreaterThan(snapshot.table_seq);
    other.stream.end();
    await closeRedis(sub);
  });

  it('applies a typed client command with one ack, and answers a refused one with one error frame', async () => {
    const c = open();
    c.send(attach('c1', 'conn-ann3', 'ann', mineTable));
    await c.answer('c1');
    c.send(
      command('c2', 'conn-ann3', 'ann', mineTable, { commandId: 'so1', command: { $case: 'sitOut', sitOut: {} } }),
    );
    const ok = await c.answer('c2');
    expect(ok.map((f) => f.frame?.$case)).toEqual(['ack']);
    const accepted = (ok[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'ack' }>).ack.atTableSeq;
    expect(accepted).toBeGreaterThan(0);
    // The same command_id again: the first answer, at the first acceptance's table_seq.
    c.send(
      command('c2b', 'conn-ann3', 'ann', mineTable, { commandId: 'so1', command: { $case: 'sitOut', sitOut: {} } }),
    );
    expect((await c.answer('c2b'))[0]?.frame).toMatchObject({ $case: 'ack', ack: { atTableSeq: accepted } });
    const act = {
      handId: '11111111-1111-4111-8111-111111111111',
      turnToken: 'AAAAAAAAAAAAAAAAAAAA',
      action: ActionType.ACTION_TYPE_FOLD,
      cards: [],
    };
    c.send(command('c3', 'conn-ann3', 'ann', mineTable, { commandId: 'a1', command: { $case: 'act', act } }));
    const refused = await c.answer('c3');
    expect(refused.map((f) => f.frame?.$case)).toEqual(['error']);
    expect(refused[0]!.frame).toEqual({
      $case: 'error',
      error: { requestId: 'c3', tableId: mineTable, code: 'stale_hand', message: 'that is not the hand in progress' },
    });
    // A command this build cannot read (an action the contract does not name) is refused unread.
    c.send(
      command('c4', 'conn-ann3', 'ann', mineTable, {
        commandId: 'a2',
        command: { $case: 'act', act: { ...act, action: ActionType.ACTION_TYPE_UNSPECIFIED } },
      }),
    );
    expect((await c.answer('c4'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'invalid_frame' } });
    c.stream.end();
  });

  it('a command whose checkpoint the replicas did not confirm is undone and answered unavailable; sent again, applied once', async () => {
    const c = open();
    c.send(attach('u1', 'conn-ann-u', 'ann', mineTable));
    await c.answer('u1');
    unconfirmed = true;
    const sitOut = { commandId: 'so-u', command: { $case: 'sitOut' as const, sitOut: {} } };
    c.send(command('u2', 'conn-ann-u', 'ann', mineTable, sitOut));
    const refused = await c.answer('u2');
    expect(refused.map((f) => f.frame?.$case)).toEqual(['error']);
    expect(refused[0]!.frame).toMatchObject({ $case: 'error', error: { code: 'unavailable' } });
    unconfirmed = false;
    c.send(command('u3', 'conn-ann-u', 'ann', mineTable, sitOut));
    const ok = await c.answer('u3');
    expect(ok.map((f) => f.frame?.$case)).toEqual(['ack']);
    const at = (ok[0]!.frame as Extract<WorkerFrame['frame'], { $case: 'ack' }>).ack.atTableSeq;
    c.send(command('u4', 'conn-ann-u', 'ann', mineTable, sitOut));
    expect((await c.answer('u4'))[0]?.frame).toMatchObject({ $case: 'ack', ack: { atTableSeq: at } });
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
    c.send(resync('r4', 'conn-m', 'mallory', mineTable));
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
      ack: { requestId: 'd1', tableId: idleTable, atTableSeq: 0 },
    });
    c.send(resync('d2', 'c', 'ann', idleTable));
    expect((await c.answer('d2'))[0]?.frame).toMatchObject({ $case: 'error', error: { code: 'not_joined' } });
    expect(await liveTables()).toBe(before);
    c.stream.end();
  });

  it('Health reports serving; Drain without the drain token is refused and changes nothing', async () => {
    for (const token of ['', 'not-the-token', DRAIN_TOKEN.slice(1)]) {
      const err = await new Promise((res) => client.drain({ token }, (e) => res(e)));
      expect(err).toMatchObject({ code: status.PERMISSION_DENIED, details: 'drain token required' });
    }
    const health = await new Promise((res, rej) => client.health({}, (e, r) => (e ? rej(e) : res(r))));
    expect(health).toMatchObject({ workerId: 'w-self', status: HealthResponse_Status.STATUS_SERVING });
    expect(self.isDraining).toBe(false);
  });

  it('Health reports serving; Drain with the token leaves the ring of owners', async () => {
    const health = await new Promise((res, rej) => client.health({}, (e, r) => (e ? rej(e) : res(r))));
    expect(health).toMatchObject({ workerId: 'w-self', status: HealthResponse_Status.STATUS_SERVING });
    const drained = await new Promise((res, rej) =>
      client.drain({ token: DRAIN_TOKEN }, (e, r) => (e ? rej(e) : res(r))),
    );
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
