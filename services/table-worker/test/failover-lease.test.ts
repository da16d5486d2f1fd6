import { randomBytes } from 'node:crypto';
import { closeRedis, createLogger, createRedis, redisKeys, type CompletedHandJob, type Redis } from '@felt/platform';
import { ErrorCode } from '@felt/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TableActor } from '../src/actor/table-actor.js';
import { TableDirectory, atHandBoundary, type TableDirectoryOptions } from '../src/actor/table-directory.js';
import { TableError } from '../src/actor/table-error.js';
import { RedisCheckpointStore } from '../src/adapters/redis-checkpoint-store.js';
import { RedisLeases } from '../src/adapters/redis-lease.js';
import { NotOwnerError, TableOwnership, type LossReason } from '../src/ownership/table-ownership.js';
import { UnconfirmedHands } from '../src/money/unconfirmed-hands.js';
import { StaleEpochError } from '../src/ports.js';
import type { BufferedEvent } from '../src/table/event-buffer.js';
import { playUntil } from './support/actor.js';
import { harness, room, TABLE, uid, type Harness } from './support/fakes.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = createLogger('table-worker', { level: 'silent' });

let redis: Redis;
const prefixes: string[] = [];

function freshPrefix(): string {
  const p = `tlease${randomBytes(4).toString('hex')}:`;
  prefixes.push(p);
  return p;
}

function leases(prefix: string, workerId: string, ttlMs = 5_000, instance = randomBytes(4).toString('hex')) {
  return new RedisLeases({ redis, prefix, workerId, instance, ttlMs });
}

function counters() {
  const c = { acquired: 0, stale: 0, lost: [] as LossReason[] };
  return {
    c,
    metrics: {
      acquired: { inc: () => void c.acquired++ },
      staleWrites: { inc: () => void c.stale++ },
      lost: { inc: ({ reason }: { reason: LossReason }) => void c.lost.push(reason) },
    },
  };
}

beforeAll(() => {
  redis = createRedis(REDIS_URL, { name: 'failover-lease-test' });
});

afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await closeRedis(redis);
});

describe('RedisLeases (real Redis)', () => {
  it('SET NX PX with an epoch that grows on every acquisition; a held lease names its holder', async () => {
    const prefix = freshPrefix();
    const a = leases(prefix, 'wa');
    const b = leases(prefix, 'wb');
    const first = await a.acquire('t1');
    expect(first.acquired).toBe(true);
    if (!first.acquired) return;
    expect(first.grant.epoch).toBe(1);
    expect(await redis.pttl(redisKeys(prefix).lease('t1'))).toBeGreaterThan(4_000);

    const refused = await b.acquire('t1');
    expect(refused).toMatchObject({ acquired: false, holder: { workerId: 'wa', epoch: 1 } });
    if (!refused.acquired) expect(refused.holder.ttlMs).toBeGreaterThan(0);

    // Only the holder releases; then the other acquires with a higher epoch.
    expect(await b.release({ tableId: 't1', epoch: 1, value: 'wb|x|1' })).toBe(false);
    expect(await a.release(first.grant)).toBe(true);
    const second = await b.acquire('t1');
    expect(second).toMatchObject({ acquired: true, grant: { epoch: 2 } });
    expect(await a.epoch('t1')).toBe(2);
    expect(await a.holder('t1')).toMatchObject({ workerId: 'wb', epoch: 2 });
  });

  it('a lease not renewed expires and the next owner gets a new epoch; renewals of the old one are refused', async () => {
    const prefix = freshPrefix();
    const a = leases(prefix, 'wa', 150);
    const b = leases(prefix, 'wb', 150);
    const first = await a.acquire('t');
    if (!first.acquired) throw new Error('not acquired');
    expect(await a.renew([first.grant])).toEqual([true]);
    // Redis expires the key by itself (its TTL is real time, so the wait is for that event).
    const key = redisKeys(prefix).lease('t');
    await vi.waitFor(async () => expect(await redis.exists(key)).toBe(0), { timeout: 5_000, interval: 20 });
    const second = await b.acquire('t');
    expect(second).toMatchObject({ acquired: true, grant: { epoch: 2 } });
    expect(await a.renew([first.grant])).toEqual([false]);
    expect(await a.release(first.grant)).toBe(false);
    expect(await b.holder('t')).toMatchObject({ workerId: 'wb' });
  });

  it('a restarted process with the same worker id takes its own lease over at once, with a new epoch', async () => {
    const prefix = freshPrefix();
    const old = leases(prefix, 'w1', 5_000, 'old');
    const restarted = leases(prefix, 'w1', 5_000, 'new');
    const g1 = await old.acquire('t');
    const g2 = await restarted.acquire('t');
    expect(g1).toMatchObject({ acquired: true, grant: { epoch: 1 } });
    expect(g2).toMatchObject({ acquired: true, grant: { epoch: 2 } });
    if (g1.acquired) expect(await old.renew([g1.grant])).toEqual([false]);
  });
});

describe('RedisCheckpointStore fenced by the epoch (real Redis)', () => {
  it('writes while the epoch is the writer’s, refuses a stale epoch and changes nothing', async () => {
    const prefix = freshPrefix();
    const store = new RedisCheckpointStore(redis, prefix, 4);
    const a = leases(prefix, 'wa');
    const b = leases(prefix, 'wb');
    const ga = await a.acquire('t');
    if (!ga.acquired) throw new Error('not acquired');
    const ev = (seq: number): BufferedEvent => ({
      tableSeq: seq,
      audience: { kind: 'all' },
      message: { type: 'table_closed', table_id: 't', table_seq: seq },
    });
    await store.save('t', 5, '{"n":"a"}', [ev(5)], { fence: { epoch: ga.grant.epoch } });
    const keys = redisKeys(prefix);
    expect(JSON.parse((await redis.get(keys.tableCheckpoint('t')))!)).toMatchObject({
      tableSeq: 5,
      epoch: 1,
      state: { n: 'a' },
    });

    // wa's lease goes (expiry simulated), wb acquires and writes.
    await redis.del(redisKeys(prefix).lease('t'));
    const gb = await b.acquire('t');
    if (!gb.acquired) throw new Error('not acquired');
    await store.save('t', 9, '{"n":"b"}', [ev(9)], {
      moneyJson: '{"lastHandNo":3}',
      fence: { epoch: gb.grant.epoch },
    });

    const stale = store.save('t', 6, '{"n":"a2"}', [ev(6)], { fence: { epoch: ga.grant.epoch } });
    await expect(stale).rejects.toBeInstanceOf(StaleEpochError);
    await expect(stale).rejects.toMatchObject({ epoch: 1, current: 2 });

    const saved = await store.load('t');
    expect(saved?.checkpoint).toMatchObject({ tableSeq: 9, state: { n: 'b' } });
    expect(saved?.events.map((e) => e.tableSeq)).toEqual([5, 9]);
    expect(JSON.parse((await redis.get(keys.tableCheckpoint('t')))!)).toMatchObject({
      epoch: 2,
      money: { lastHandNo: 3 },
    });
    expect(await store.mark('t')).toEqual({ tableSeq: 9, epoch: 2, handId: null });
  });

  it('the mark keeps the hand in progress, the last hand number and the last table_seq beside the checkpoint', async () => {
    const prefix = freshPrefix();
    const store = new RedisCheckpointStore(redis, prefix);
    await store.save('t', 3, '{}', [], { mark: { handId: 'h-1', handNo: 6 } });
    expect(await store.mark('t')).toEqual({ tableSeq: 3, epoch: 0, handId: 'h-1', handNo: 6 });
    await store.save('t', 4, '{}', [], { mark: { handId: null, handNo: 7 } });
    expect(await store.mark('t')).toEqual({ tableSeq: 4, epoch: 0, handId: null, handNo: 7 });
    await store.save('t', 5, '{}', []);
    expect(await store.mark('t')).toEqual({ tableSeq: 5, epoch: 0, handId: null });

    // What a live table says of itself: the hand dealt and not finished, and its last hand number.
    const { a } = twoWorkers(freshPrefix());
    await dealHand(a.h, a.directory);
    const actor = a.directory.peek(TABLE)!;
    expect(await a.store.mark(TABLE)).toMatchObject({ handId: actor.snapshot().meta!.handId, handNo: 0 });
    await a.directory.close();
  });
});

const A = uid(1);
const B = uid(2);

/** With `ringOwner`, each worker serves TABLE only while that says the ring names it. */
function twoWorkers(
  prefix: string,
  ringOwner?: () => string,
  monotonic = leaseClock(),
  extra: Partial<TableDirectoryOptions> = {},
) {
  const ha = harness();
  const hb = harness();
  const seed = room([
    { userId: A, name: 'Ann', seat: 1, stack: 200 },
    { userId: B, name: 'Bob', seat: 2, stack: 200 },
  ]);
  ha.seeds.rooms.set(TABLE, seed);
  hb.seeds.rooms.set(TABLE, seed);
  const make = (h: Harness, id: string) => {
    const { c, metrics } = counters();
    const ownership = new TableOwnership({
      leases: leases(prefix, id, 60_000),
      logger: silent,
      acquireWaitMs: 100,
      metrics,
      monotonicNow: monotonic.now,
    });
    const store = new RedisCheckpointStore(redis, prefix);
    const directory = new TableDirectory({
      ...h.deps,
      checkpoints: store,
      idleMs: 60_000,
      ownership,
      ...(ringOwner ? { shouldServe: () => ringOwner() === id, ringOwnerOf: ringOwner } : {}),
      ...extra,
    });
    return { h, c, ownership, directory, store };
  };
  return { a: make(ha, 'wa'), b: make(hb, 'wb') };
}

/**
 * The monotonic clock the workers' leases are timed by: real time unless the test freezes it, so a
 * lease then lapses when the test moves the clock, never because the machine was slow.
 */
function leaseClock(): { now: () => number; freeze(): void; advance(ms: number): void } {
  let frozen: number | null = null;
  return {
    now: () => frozen ?? performance.now(),
    freeze: () => {
      frozen = performance.now();
    },
    advance: (ms) => {
      frozen = (frozen ?? performance.now()) + ms;
    },
  };
}

/**
 * Worker b about to rebuild TABLE from the room rows: the last checkpoint said hand 3 was complete,
 * then it was lost (its mark stayed), the rows (`rowsAt(n)`: persisted through hand n) hold hand 1
 * so far, and hands 2 and 3 wait in the hands queue.
 */
async function lostCheckpointAfterHand3() {
  const prefix = freshPrefix();
  const { b } = twoWorkers(prefix);
  await b.store.save(TABLE, 30, '{}', [], { mark: { handId: null, handNo: 3 } });
  await redis.del(redisKeys(prefix).tableCheckpoint(TABLE));
  for (const handNo of [2, 3]) {
    await b.h.hands.enqueue({ hand_id: `hand-${handNo}`, room_id: TABLE, hand_no: handNo } as CompletedHandJob);
  }
  const members = [
    { userId: A, name: 'Ann', seat: 1, stack: 200 },
    { userId: B, name: 'Bob', seat: 2, stack: 200 },
  ];
  const rowsAt = (lastHandNo: number) => b.h.seeds.rooms.set(TABLE, room(members, {}, { lastHandNo }));
  rowsAt(1);
  return { prefix, b, rowsAt };
}

/** The directory's live actor for TABLE, once it serves it with both dealHand connections attached again. */
function servedWithBoth(directory: TableDirectory): Promise<TableActor> {
  return vi.waitFor(() => {
    const live = directory.peek(TABLE);
    expect(
      live
        ?.snapshot()
        .connections.map((c) => c.connectionId)
        .sort(),
    ).toEqual(['ca', 'cb']);
    return live!;
  });
}

async function dealHand(h: Harness, directory: TableDirectory): Promise<void> {
  const actor = await directory.get(TABLE);
  await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's', userId: A });
  await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's', userId: B });
  // The pause before the hand, then the seed window: each fires a tick that checkpoints to Redis.
  h.time.advance(1_000);
  await settled(actor);
  h.time.advance(1_500);
  await settled(actor);
  expect(actor.snapshot().meta).not.toBeNull();
}

/**
 * A barrier through the actor's mailbox: a resync is answered only after every command queued
 * before it (the ticks the clock just fired, each a real Redis round trip), and it changes nothing.
 */
async function settled(actor: TableActor): Promise<void> {
  await actor.submit({ kind: 'resync', connectionId: 'ca', userId: A });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TableDirectory under leases (real Redis)', () => {
  it('serves a table only under its lease: the other worker is told NOT_OWNER with the holder', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    await dealHand(a.h, a.directory);
    expect(a.directory.epochOf(TABLE)).toBe(1);
    const err = await b.directory.get(TABLE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotOwnerError);
    expect(err).toMatchObject({ ownerId: 'wa' });
    expect(b.directory.size).toBe(0);
    await a.directory.close();
    await b.directory.close();
  });

  it('split brain: after a takeover, the old owner’s write is refused by the epoch, it stops serving, and the new owner continues the hand', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    await dealHand(a.h, a.directory);
    const before = (await a.store.load(TABLE))!.checkpoint;
    const state = before.state as Parameters<typeof atHandBoundary>[0];
    expect(atHandBoundary(state)).toBe(false);
    const handId = state.meta!.handId;

    // wa stalls past its lease (simulated: the key expires), wb takes the table over mid-hand.
    await redis.del(redisKeys(prefix).lease(TABLE));
    const actorB = await b.directory.get(TABLE);
    expect(b.directory.epochOf(TABLE)).toBe(2);
    const resumed = actorB.snapshot();
    expect(resumed.meta?.handId).toBe(handId);
    expect(resumed.engine).toEqual(state.engine);
    expect(actorB.tableSeq).toBe(before.tableSeq);

    // wa wakes up and tries to go on: its write is refused, nothing is published, and it stops.
    const published = a.h.publisher.all.length;
    const actorA = a.directory.peek(TABLE)!;
    await expect(actorA.submit({ kind: 'detach', connectionId: 'ca', userId: A })).rejects.toBeInstanceOf(
      NotOwnerError,
    );
    expect(a.c.stale).toBe(1);
    expect(a.c.lost).toEqual(['stale_epoch']);
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());
    // The eviction stopped the actor; stopping it again resolves once its mailbox has drained, so
    // nothing it still held can publish after this.
    await actorA.stop();
    expect(a.h.publisher.all.length).toBe(published);
    const again = await a.directory.get(TABLE).catch((e: unknown) => e);
    expect(again).toMatchObject({ name: 'NotOwnerError', ownerId: 'wb' });

    // The checkpoint is wb's, and wb goes on with table_seq growing.
    await actorB.submit({ kind: 'attach', connectionId: 'cb2', streamId: 's2', userId: B });
    const after = (await b.store.load(TABLE))!.checkpoint;
    expect(after.tableSeq).toBeGreaterThan(before.tableSeq);
    expect(JSON.parse((await redis.get(redisKeys(prefix).tableCheckpoint(TABLE)))!).epoch).toBe(2);
    await a.directory.close();
    await b.directory.close();
  });

  it('a renewal refused or late evicts the table at once and refuses its commands', async () => {
    const prefix = freshPrefix();
    const { a } = twoWorkers(prefix);
    await dealHand(a.h, a.directory);
    const actor = a.directory.peek(TABLE)!;
    // Someone else holds the lease now (as after an expiry and a takeover).
    await redis.set(redisKeys(prefix).lease(TABLE), 'wz|i|7', 'PX', 5_000);
    await a.ownership.renewAll();
    expect(a.c.lost).toEqual(['renew_refused']);
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());
    await expect(actor.submit({ kind: 'detach', connectionId: 'ca', userId: A })).rejects.toThrow();
    const refused = await a.directory.get(TABLE).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'NotOwnerError', ownerId: 'wz' });
    await a.directory.close();
  });

  it('a lease whose renewal did not come in time is lost before the next write reaches Redis', async () => {
    const prefix = freshPrefix();
    const clock = leaseClock();
    clock.freeze();
    const { a } = twoWorkers(prefix, undefined, clock);
    await dealHand(a.h, a.directory);
    const actor = a.directory.peek(TABLE)!;
    const seq = (await a.store.load(TABLE))!.checkpoint.tableSeq;
    // No renewal ran (the process was stopped): past 80 % of the TTL the lease counts as lapsed.
    clock.advance(a.ownership.ttlMs * 0.8 + 1);
    await expect(actor.submit({ kind: 'detach', connectionId: 'ca', userId: A })).rejects.toBeInstanceOf(NotOwnerError);
    expect(a.c.lost).toEqual(['expired']);
    expect(a.c.stale).toBe(0);
    expect((await a.store.load(TABLE))!.checkpoint.tableSeq).toBe(seq);
    await a.directory.close();
  });

  it('a table rebuilt from the room rows waits for the persister to write the hands it completed, unavailable until then', async () => {
    const { prefix, b, rowsAt } = await lostCheckpointAfterHand3();

    // The persister is behind (hands 2 and 3 still queued): no table from stale stacks; at the
    // deadline the table is unavailable (a gateway tries again), the lease given back.
    const refused = b.directory.get(TABLE).catch((err: unknown) => err);
    // Waiting for the rows: the directory polls them on the (fake) clock.
    await b.h.time.armed();
    b.h.time.advance(25_000);
    const err = await refused;
    expect(err).toBeInstanceOf(TableError);
    expect((err as TableError).code).toBe('unavailable');
    expect(b.directory.peek(TABLE)).toBeUndefined();
    expect(await redis.get(redisKeys(prefix).lease(TABLE))).toBeNull();

    // It catches up while the next attempt waits: the table comes up from rows that hold hand 3.
    rowsAt(2);
    const next = b.directory.get(TABLE);
    await b.h.time.armed();
    expect(b.directory.peek(TABLE)).toBeUndefined();
    rowsAt(3);
    // The next poll of the rows finds hand 3.
    b.h.time.advance(250);
    const actor = await next;
    expect(actor.snapshot().handNo).toBe(3);
    expect(actor.tableSeq).toBeGreaterThanOrEqual(30);
    await b.directory.close();
  });

  it('Redis lost the hands queue with the checkpoint: the worker that queued the hands sends them again and deals on once they are written', async () => {
    const unconfirmed = new UnconfirmedHands();
    const { b } = twoWorkers(freshPrefix(), undefined, leaseClock(), { unconfirmed });
    const { h, directory } = b;
    const members = [
      { userId: A, name: 'Ann', seat: 1, stack: 200 },
      { userId: B, name: 'Bob', seat: 2, stack: 200 },
    ];
    const rowsAt = (lastHandNo: number) => h.seeds.rooms.set(TABLE, room(members, {}, { lastHandNo }));
    // Hands 2 and 3 were queued here and never confirmed written; the rows hold hand 1. Then Redis
    // restarted empty: no checkpoint, no mark, an empty queue.
    for (const handNo of [1, 2, 3])
      unconfirmed.sent({ hand_id: `hand-${handNo}`, room_id: TABLE, hand_no: handNo } as CompletedHandJob);
    rowsAt(1);

    const next = directory.get(TABLE);
    // Sent again in order (hand 1, which the rows hold, is not), and the table waits for them.
    await vi.waitFor(() => expect(h.hands.log).toEqual(['hand:2', 'hand:3']));
    await h.time.armed();
    expect(directory.peek(TABLE)).toBeUndefined();
    rowsAt(3);
    h.time.advance(250);
    const actor = await next;
    expect(actor.snapshot().handNo).toBe(3);
    // Sent under this worker's lease: a seal after them refuses only older epochs' hands.
    expect(h.hands.jobs.map((j) => j.epoch)).toEqual([directory.epochOf(TABLE), directory.epochOf(TABLE)]);
    // Confirmed once written: a later rebuild sends nothing.
    unconfirmed.confirmed(TABLE, 'hand-2');
    unconfirmed.confirmed(TABLE, 'hand-3');
    expect(unconfirmed.size).toBe(0);
    await directory.close();
  });

  it('a table stopped while it still owed the queue completed hands keeps them: after Redis lost its data, the rebuild from the rows sends them', async () => {
    const unconfirmed = new UnconfirmedHands();
    const prefix = freshPrefix();
    const { a } = twoWorkers(prefix, undefined, leaseClock(), { unconfirmed });
    const { h, directory } = a;
    const members = [
      { userId: A, name: 'Ann', seat: 1, stack: 200 },
      { userId: B, name: 'Bob', seat: 2, stack: 200 },
    ];
    const rowsAt = (lastHandNo: number) => h.seeds.rooms.set(TABLE, room(members, {}, { lastHandNo }));
    rowsAt(0);
    const actor = await directory.get(TABLE);
    await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's', userId: A });
    await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's', userId: B });
    // The queue is down (Redis is restarting): completed hands wait in the table's outbox.
    h.hands.fail = true;
    await playUntil(h, actor, () => actor.snapshot().outbox.length >= 2);
    expect(actor.snapshot().outbox.length).toBeGreaterThanOrEqual(2);
    const owed = actor.snapshot().outbox.map((o) => ('kind' in o && o.kind === 'hand' ? o.job.hand_no : -1));
    expect(owed).toEqual([1, 2]);
    // The table stops here (its lease lost with Redis's data), and Redis comes back empty: the
    // checkpoint and its outbox are gone.
    await directory.evict(TABLE);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    h.hands.fail = false;

    // Rebuilt from the rows (hand 0): the owed hands go to the queue, in order, and the table waits for them.
    const next = directory.get(TABLE);
    await vi.waitFor(() => expect(h.hands.log).toEqual(['hand:1', 'hand:2']));
    await h.time.armed();
    rowsAt(2);
    h.time.advance(250);
    const rebuilt = await next;
    expect(rebuilt.snapshot().handNo).toBe(2);
    // Under the rebuilding lease's epoch.
    expect(h.hands.jobs.map((j) => j.epoch)).toEqual([directory.epochOf(TABLE), directory.epochOf(TABLE)]);
    await directory.close();
  });

  it('a rebuilt table whose missing hands are in no queue (lost with the checkpoint’s outbox) goes on from the room rows at once', async () => {
    const { b, rowsAt } = await lostCheckpointAfterHand3();
    let pending = 1;
    b.h.hands.pendingHandsOf = () => Promise.resolve(pending);
    const next = b.directory.get(TABLE);
    // The queue still holds a hand of the room: the directory waits (on the fake clock).
    await b.h.time.armed();
    // Hand 2 is persisted meanwhile; hand 3 is in no queue.
    rowsAt(2);
    pending = 0;
    // The queue is asked again a second later.
    b.h.time.advance(1_000);
    const actor = await next;
    // Numbering goes on from the rows: the persister accepts only the next number.
    expect(actor.snapshot().handNo).toBe(2);
    await b.directory.close();
  });

  it('a lease lost while Postgres is down: the table is taken again once the room rows answer, its connections attached', async () => {
    const prefix = freshPrefix();
    const { a } = twoWorkers(prefix, () => 'wa');
    await dealHand(a.h, a.directory);
    const seq = a.directory.peek(TABLE)!.tableSeq;
    // Postgres goes down: the next read of the room rows fails, the one after answers.
    const load = vi
      .spyOn(a.h.seeds, 'load')
      .mockImplementationOnce(() =>
        Promise.reject(new TableError(ErrorCode.UNAVAILABLE, 'the room records are unavailable; retry shortly', TABLE)),
      );
    // The lease is gone (it lapsed in a stall): the renewal is refused, the table is evicted and taken
    // again at once under a new lease, but loading it fails on the room rows.
    await redis.del(redisKeys(prefix).lease(TABLE));
    await a.ownership.renewAll();
    expect(a.c.lost).toEqual(['renew_refused']);
    await vi.waitFor(() => expect(load).toHaveBeenCalled());
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());

    // A lease TTL later it tries again, and the rows answer: the table is served with both
    // connections attached (their gateways still count them as attached here), table_seq going on.
    a.h.time.advance(a.ownership.ttlMs);
    const actor = await servedWithBoth(a.directory);
    expect(actor.tableSeq).toBeGreaterThan(seq);
    expect(a.directory.epochOf(TABLE)).toBeGreaterThanOrEqual(2);
    await a.directory.close();
  });

  it('a table the ring moves away while it is being loaded is not served: its lease goes back and the new owner takes it at once', async () => {
    const prefix = freshPrefix();
    let ringOwner = 'wb';
    const { a, b } = twoWorkers(prefix, () => ringOwner);
    await dealHand(b.h, b.directory);
    const seq = b.directory.peek(TABLE)!.tableSeq;
    await b.directory.evict(TABLE);

    // wb loads the table again (a gateway re-attaches a connection); while it reads the room rows,
    // a worker joins and the ring gives the table to wa. wb's ring change found nothing live to evict.
    const load = b.h.seeds.load.bind(b.h.seeds);
    vi.spyOn(b.h.seeds, 'load').mockImplementationOnce((id) => {
      ringOwner = 'wa';
      return load(id);
    });
    const refused = await b.directory.get(TABLE).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotOwnerError);
    expect(refused).toMatchObject({ ownerId: 'wa' });
    expect(b.directory.peek(TABLE)).toBeUndefined();
    expect(b.ownership.heldLease(TABLE)).toBeUndefined();
    expect(await redis.get(redisKeys(prefix).lease(TABLE))).toBeNull();

    // The ring's owner serves it at once (it would otherwise wait, NOT_OWNER, for as long as wb kept
    // renewing a lease for a table no gateway sends it).
    const actorA = await a.directory.get(TABLE);
    expect(a.directory.epochOf(TABLE)).toBe(3);
    expect(actorA.tableSeq).toBe(seq);
    await a.directory.close();
    await b.directory.close();
  });

  it('eviction releases the lease, so the next owner starts at once and continues table_seq', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    await dealHand(a.h, a.directory);
    const seq = a.directory.peek(TABLE)!.tableSeq;
    await a.directory.evict(TABLE);
    expect(await redis.get(redisKeys(prefix).lease(TABLE))).toBeNull();
    const actorB = await b.directory.get(TABLE);
    expect(actorB.tableSeq).toBe(seq);
    expect(b.directory.epochOf(TABLE)).toBe(2);
    await b.directory.close();
  });

  it('Redis loses its data: a fresh lease with an epoch the room already saw is refused, the next serves the table with table_seq still growing', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    const room = fenceRoom(a.h, b.h);
    await dealHand(a.h, a.directory);
    expect(room.ownerEpoch).toBe(1);
    const seq = a.directory.peek(TABLE)!.tableSeq;
    await a.directory.evict(TABLE);

    // Redis comes back empty (a restart without persistence, a failover to a replica that lagged):
    // the lease, the epoch counter, the checkpoint and its mark are gone.
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);

    // The counter starts again, so the next acquisition gets epoch 1 again, which the room saw: two
    // workers could write under it. The claim is refused, and the counter raised to the room's.
    const refused = await b.directory.get(TABLE).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NotOwnerError);
    expect(b.c.stale).toBe(1);
    expect(room.ownerEpoch).toBe(1);

    // The next acquisition is above it, and the table (served before: the room saw an epoch) starts
    // from the room rows with table_seq above anything its clients saw.
    const actor = await b.directory.get(TABLE);
    expect(b.directory.epochOf(TABLE)).toBe(2);
    expect(room.ownerEpoch).toBe(2);
    expect(actor.tableSeq).toBeGreaterThan(seq);
    await a.directory.close();
    await b.directory.close();
  });

  it('Redis loses its data under a live table while the ring is still empty: it is taken again with its connections once the ring names it, and the gateways are told to re-attach', async () => {
    const prefix = freshPrefix();
    let ringOwner = 'wa';
    const { a } = twoWorkers(prefix, () => ringOwner);
    const room = fenceRoom(a.h);
    await dealHand(a.h, a.directory);
    const seq = a.directory.peek(TABLE)!.tableSeq;
    const resets: number[] = [];
    a.h.publisher.listen((d) => {
      if (d.envelope.control === 'reattach') resets.push(d.envelope.table_seq);
    });

    // Redis comes back empty: the lease, the epoch counter, the checkpoint, its mark and the ring's
    // members are gone. Until the workers register again, the ring names nobody.
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    ringOwner = '';
    await a.ownership.renewAll();
    expect(a.c.lost).toEqual(['renew_refused']);
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());
    // The worker does not give the table up for good: it will look again (its only timer now).
    await vi.waitFor(() => expect(a.h.time.nextAt()).toBeDefined(), { timeout: 5_000 });

    // The ring names this worker again: a lease TTL later the table is tried again. The first lease
    // after the loss has epoch 1, which the room saw: refused, and the one after serves it.
    ringOwner = 'wa';
    a.h.time.advance(a.ownership.ttlMs);
    await vi.waitFor(() => expect(a.c.stale).toBe(1));
    a.h.time.advance(a.ownership.ttlMs);
    const actor = await servedWithBoth(a.directory);
    expect(room.ownerEpoch).toBe(2);
    expect(actor.tableSeq).toBeGreaterThan(seq);
    // Built from the room rows: every gateway re-attaches what it holds (other gateways' sockets too).
    expect(resets).toHaveLength(1);
    expect(resets[0]).toBeGreaterThan(seq);
    await a.directory.close();
  });

  it('a ring seen for a moment moves a live table away: the table is taken back with its connections once the ring names this worker again', async () => {
    // Right after Redis lost its data the workers register again a heartbeat apart: this worker's
    // ring may name another (or none) for a moment, while the gateways, which never saw that ring,
    // keep its connections attached here. CI once saw clients silent until their 25 s watch.
    const prefix = freshPrefix();
    let ringOwner = 'wa';
    const { a } = twoWorkers(prefix, () => ringOwner);
    await dealHand(a.h, a.directory);
    const seq = a.directory.peek(TABLE)!.tableSeq;

    ringOwner = 'wb';
    a.directory.ringChanged();
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());
    // Evicted, its lease given back, and looked at again a lease TTL later (its only timer now).
    await vi.waitFor(() => expect(a.h.time.nextAt()).toBeDefined(), { timeout: 5_000 });
    ringOwner = 'wa';
    a.directory.ringChanged();
    a.h.time.advance(a.ownership.ttlMs);
    const actor = await servedWithBoth(a.directory);
    // From its checkpoint, under a new epoch: the hand goes on, table_seq still grows.
    expect(a.directory.epochOf(TABLE)).toBe(2);
    expect(actor.snapshot().meta).not.toBeNull();
    expect(actor.tableSeq).toBeGreaterThan(seq);
    expect(a.c.lost).toEqual([]);
    await a.directory.close();
  });

  it('a table the ring really moved is left to its new owner: nothing is taken back, and no lease is held', async () => {
    const prefix = freshPrefix();
    let ringOwner = 'wa';
    const { a, b } = twoWorkers(prefix, () => ringOwner);
    await dealHand(a.h, a.directory);
    ringOwner = 'wb';
    a.directory.ringChanged();
    await vi.waitFor(() => expect(a.directory.peek(TABLE)).toBeUndefined());
    // The new owner continues the hand from the checkpoint; a's later looks find the ring elsewhere.
    const moved = await b.directory.get(TABLE);
    expect(moved.snapshot().meta).not.toBeNull();
    for (let i = 0; i < 3; i++) {
      await vi.waitFor(() => expect(a.h.time.nextAt()).toBeDefined(), { timeout: 5_000 });
      a.h.time.advance(a.ownership.ttlMs);
    }
    expect(a.directory.peek(TABLE)).toBeUndefined();
    expect(a.ownership.tableIds()).toEqual([]);
    expect(b.directory.epochOf(TABLE)).toBe(2);
    await a.directory.close();
    await b.directory.close();
  });

  it('Redis loses its data and another worker rebuilds the table: it seals the room at the rows’ last hand under its epoch, reading them again when a hand landed meanwhile', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    const fenced = fenceRoom(a.h, b.h);
    const members = [
      { userId: A, name: 'Ann', seat: 1, stack: 200 },
      { userId: B, name: 'Bob', seat: 2, stack: 200 },
    ];
    const rowsAt = (lastHandNo: number) => b.h.seeds.rooms.set(TABLE, room(members, {}, { lastHandNo }));
    // Worker a served the table (epoch 1); Redis then lost everything. The rows hold hand 1, and a
    // persister still holds a's hand 2: it lands just as b seals.
    await dealHand(a.h, a.directory);
    await a.directory.evict(TABLE);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    rowsAt(1);
    fenced.beforeSeal = () => {
      fenced.beforeSeal = undefined;
      rowsAt(2);
    };

    // The first lease after the loss repeats epoch 1 (refused); the next one serves.
    await b.directory.get(TABLE).catch(() => undefined);
    const actor = await b.directory.get(TABLE);
    const epoch = b.directory.epochOf(TABLE)!;
    expect(epoch).toBeGreaterThan(1);
    // Sealed at hand 2, under b's epoch, after reading the rows again: the table goes on from the
    // stacks hand 2 left, and any older hand numbered past 2 will be refused as superseded.
    expect(fenced.seals).toEqual([
      { epoch, handNo: 1, sealed: false },
      { epoch, handNo: 2, sealed: true },
    ]);
    expect(actor.snapshot().handNo).toBe(2);
    await a.directory.close();
    await b.directory.close();
  });

  it('a table restored from its checkpoint seals nothing', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    const fenced = fenceRoom(a.h, b.h);
    await dealHand(a.h, a.directory);
    await a.directory.evict(TABLE);
    await b.directory.get(TABLE);
    expect(fenced.seals).toEqual([]);
    await a.directory.close();
    await b.directory.close();
  });

  it('a table restored from its checkpoint, or new, sends no re-attach notice', async () => {
    const prefix = freshPrefix();
    const { a, b } = twoWorkers(prefix);
    fenceRoom(a.h, b.h);
    const resets: string[] = [];
    for (const h of [a.h, b.h])
      h.publisher.listen((d) => {
        if (d.envelope.control !== undefined) resets.push(d.envelope.control);
      });
    await dealHand(a.h, a.directory);
    await a.directory.evict(TABLE);
    await b.directory.get(TABLE);
    expect(resets).toEqual([]);
    await a.directory.close();
    await b.directory.close();
  });
});

/**
 * The room's owner_epoch as @felt/db's claimRoomEpoch keeps it (prisma/test/money.test.ts checks
 * that one against Postgres), shared by both workers' room rows.
 */
function fenceRoom(...hs: Harness[]): FencedRoom {
  const room: FencedRoom = { ownerEpoch: 0, seals: [] };
  const claimEpoch = (roomId: string, epoch: number, fresh: boolean): Promise<number> => {
    if (room.ownerEpoch > epoch || (fresh && room.ownerEpoch === epoch)) {
      return Promise.reject(new StaleEpochError(roomId, epoch, room.ownerEpoch, 'room claim'));
    }
    const before = room.ownerEpoch;
    room.ownerEpoch = epoch;
    return Promise.resolve(before);
  };
  for (const h of hs) {
    // @felt/db sealRoomRebuild: fenced by the epoch, and refused while the rows end elsewhere.
    const sealRebuild = (roomId: string, epoch: number, lastHandNo: number): Promise<boolean> => {
      if (room.ownerEpoch > epoch) {
        return Promise.reject(new StaleEpochError(roomId, epoch, room.ownerEpoch, 'rebuild seal'));
      }
      room.beforeSeal?.();
      const sealed = (h.seeds.rooms.get(roomId)?.lastHandNo ?? 0) === lastHandNo;
      room.seals.push({ epoch, handNo: lastHandNo, sealed });
      return Promise.resolve(sealed);
    };
    Object.assign(h.seeds, { claimEpoch, sealRebuild });
  }
  return room;
}

interface FencedRoom {
  ownerEpoch: number;
  /** Every seal asked for, in order, and whether the rows still ended at its hand. */
  readonly seals: { epoch: number; handNo: number; sealed: boolean }[];
  /** Runs as a seal is asked for, before the rows are compared (a hand landing just then). */
  beforeSeal?: (() => void) | undefined;
}

describe('workers whose clocks disagree (real Redis)', () => {
  // Leases are timed by Redis (PX) and each process's monotonic clock, never by wall clocks; a turn's
  // deadline is an absolute time on the clock of whoever owns the table. So a table that moves to a
  // worker whose clock is off by 2 s has one owner at a time, and its clock acts within 2 s of the
  // deadline, in real time, never further off.
  const SKEW = 2_000;
  const STEP = 100;
  for (const skew of [SKEW, -SKEW]) {
    it(`moved to a worker ${skew > 0 ? 'ahead' : 'behind'} by 2 s: one owner at a time, the clock acts within the skew`, async () => {
      const prefix = freshPrefix();
      const { a, b } = twoWorkers(prefix);
      // Each worker's wall clock: b reads `skew` ms more than a at every instant.
      if (skew > 0) b.h.time.advance(skew);
      else a.h.time.advance(-skew);
      const before = a.h.time.now();
      await dealHand(a.h, a.directory);
      // The deal moved a's clock: real time passed for b too.
      b.h.time.advance(a.h.time.now() - before);
      expect(b.h.time.now() - a.h.time.now()).toBe(skew);
      const turn = a.directory.peek(TABLE)!.snapshot().turn!;
      // When a's clock says the player's action clock and time bank run out, in real ms from now.
      const dueIn = turn.deadline + turn.bankAtStart - a.h.time.now();

      // a hands the table over (a drain, a rebalance): b takes it under the next epoch.
      await a.directory.evict(TABLE);
      const actor = await b.directory.get(TABLE);
      await actor.submit({ kind: 'attach', connectionId: 'ca', streamId: 's', userId: A });
      await actor.submit({ kind: 'attach', connectionId: 'cb', streamId: 's', userId: B });
      expect(b.directory.epochOf(TABLE)).toBe(2);
      const refused = await a.directory.get(TABLE).catch((e: unknown) => e);
      expect(refused).toMatchObject({ name: 'NotOwnerError', ownerId: 'wb' });

      // Real time passes for both alike; nobody acts, so b's clock acts for the player.
      let elapsed = 0;
      while (actor.snapshot().turn?.token === turn.token) {
        a.h.time.advance(STEP);
        b.h.time.advance(STEP);
        elapsed += STEP;
        await settled(actor);
        expect(elapsed, 'the clock never acted').toBeLessThan(dueIn + 3 * SKEW);
      }
      // b acted when its own clock reached the deadline: off by the skew in real time, no more.
      expect(Math.abs(elapsed - dueIn)).toBeLessThanOrEqual(SKEW + STEP);
      expect(Math.sign(dueIn - elapsed)).toBe(Math.sign(skew));
      // And a, which no longer owns the table, never wrote to it: the checkpoint is b's.
      expect(JSON.parse((await redis.get(redisKeys(prefix).tableCheckpoint(TABLE)))!).epoch).toBe(2);
      await a.directory.close();
      await b.directory.close();
    });
  }
});
