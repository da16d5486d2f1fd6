// The persister over several hands queues (FELT_HANDS_QUEUES), on the real shared Redis, BullMQ
// and Postgres: every table's hands written from the queue its id hashes to, a room's hand order kept
// across queues (a hand waits for its predecessor on another queue and is woken as soon as that one
// is written), and a queue left past the configured count drained, never stranded.
import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import { createTestDatabase, runAudit, type PersistOutcome, type TestDatabase } from '@felt/db';
import {
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  HandJobName,
  handJobOptions,
  handsQueueIndexOf,
  handsQueues,
  handsQueuesInUse,
  type HandsQueue,
  type Redis,
} from '@felt/platform';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, until } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { HandConsumer, watchHandsQueues } from '../src/hand-consumer.js';
import { PrismaMoneyStore } from '../src/money-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const COUNT = 3;

describe('hand consumer over several queues (real Redis, BullMQ and Postgres)', () => {
  const prefix = `tq${randomBytes(5).toString('hex')}:`;
  const spec = { prefix, name: 'hands', cluster: false };
  let db: TestDatabase;
  let connection: Redis;
  let producer: Redis;
  let publisher: Redis;
  let subscriber: Redis;
  /** Producer handles on queues 0 to 5 (the consumer reads 0 to COUNT − 1 of them). */
  let queues: Queue[];
  const consumers: HandConsumer[] = [];
  const outcomes: PersistOutcome[] = [];

  function consumer(on: readonly HandsQueue[]): HandConsumer {
    const c = new HandConsumer({
      queueName: spec.name,
      queues: on,
      prefix,
      connection,
      publisher,
      store: new PrismaMoneyStore(db.prisma),
      logger: createLogger('test', { level: 'silent' }),
      registry: createMetricsRegistry('test'),
      concurrency: 4,
      // Far longer than any test waits: a hand that waits for its predecessor is only back in time if
      // the predecessor's write wakes it, whatever queue each is on.
      waitDelayMs: 600_000,
    });
    c.start();
    consumers.push(c);
    return c;
  }

  const written = async (handIds: readonly string[]) =>
    (await db.prisma.hand.count({ where: { handId: { in: [...handIds] } } })) === handIds.length;

  /** A new heads-up room's first `hands` hands, played in the simulator and held back (not queued). */
  async function heldHands(seed: string, hands: number): Promise<{ roomId: string; jobs: HandJob[] }> {
    const room = await createRoom(db.prisma, [
      { name: 'h1', buyIn: 150 },
      { name: 'h2', buyIn: 150 },
    ]);
    const jobs: HandJob[] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (job) => Promise.resolve(void jobs.push(job)), cashOut: () => Promise.resolve() },
      new SeededRng(seed),
    );
    for (let i = 0; i < hands; i++) await t.playHand();
    return { roomId: room.roomId, jobs };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = createRedis(REDIS_URL, { name: 'persister-queues-test', maxRetriesPerRequest: null });
    producer = createRedis(REDIS_URL, { name: 'persister-queues-producer', maxRetriesPerRequest: null });
    publisher = createRedis(REDIS_URL, { name: 'persister-queues-publisher' });
    subscriber = createRedis(REDIS_URL, { name: 'persister-queues-subscriber' });
    subscriber.on('message', (_c: string, m: string) => outcomes.push(JSON.parse(m) as PersistOutcome));
    await subscriber.subscribe(`${prefix}persist-outcomes`);
    queues = handsQueues(spec, 6).map((q) => new Queue(q.name, { connection: producer, prefix: q.prefix }));
    consumer(handsQueues(spec, COUNT));
  });

  afterAll(async () => {
    for (const c of consumers) await c.close();
    for (const q of queues ?? []) {
      await q.obliterate({ force: true }).catch(() => undefined);
      await q.close();
    }
    for (const c of [connection, producer, publisher, subscriber]) if (c) await closeRedis(c);
    await db?.drop();
  });

  it("writes every table's hands from the queue its id hashes to, and the books balance", async () => {
    // Tables until each queue has one.
    const rooms: string[] = [];
    while (new Set(rooms.map((r) => handsQueueIndexOf(r, COUNT))).size < COUNT) {
      const room = await createRoom(db.prisma, [
        { name: 'q1', buyIn: 150 },
        { name: 'q2', buyIn: 150 },
      ]);
      rooms.push(room.roomId);
    }
    const handIds: string[] = [];
    for (const roomId of rooms) {
      const queue = queues[handsQueueIndexOf(roomId, COUNT)]!;
      const t = await SimTable.load(
        db.prisma,
        roomId,
        {
          hand: async (job) => {
            handIds.push(job.hand_id);
            await queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
          },
          cashOut: () => Promise.resolve(),
        },
        new SeededRng(`queues-${roomId}`),
      );
      for (let i = 0; i < 3; i++) await t.playHand();
    }
    await until(() => written(handIds), 'every hand written');
    for (const q of queues.slice(0, COUNT)) expect((await q.getJobCounts('completed')).completed).toBeGreaterThan(0);
    expect(await consumers[0]!.failedJobs()).toBe(0);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('keeps a room’s hand order across queues: a hand waits for its predecessor on another queue and is woken when it is written', async () => {
    const { roomId, jobs } = await heldHands('across-queues', 2);
    const [first, second] = jobs as [HandJob, HandJob];
    // As after FELT_HANDS_QUEUES changed between the two hands: hand 2 on queue 2 arrives first.
    await queues[2]!.add(HandJobName.HAND_COMPLETED, second, handJobOptions(second.hand_id));
    await until(
      () => Promise.resolve(outcomes.some((o) => o.id === second.hand_id && o.outcome === 'waiting')),
      'hand 2 waiting for hand 1',
    );
    expect(await written([second.hand_id])).toBe(false);
    await queues[0]!.add(HandJobName.HAND_COMPLETED, first, handJobOptions(first.hand_id));
    await until(() => written([first.hand_id, second.hand_id]), 'both hands written, hand 2 woken at once');
    const stored = await db.prisma.hand.findMany({ where: { roomId }, orderBy: { handNo: 'asc' } });
    expect(stored.map((h) => h.handId)).toEqual([first.hand_id, second.hand_id]);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('drains a queue past FELT_HANDS_QUEUES that holds jobs (a worker with a larger count), found while running', async () => {
    const job = (await heldHands('drained', 1)).jobs[0]!;
    // Queued by a worker that still runs with 6 queues (mid-rollout); the persisters read 3.
    await queues[5]!.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
    const inUse = await handsQueuesInUse(connection, spec, COUNT);
    expect(inUse.map((q) => q.name)).toEqual(['hands', 'hands-1', 'hands-2', 'hands-5']);
    // The running persister finds it on its next look (main.ts looks every PERSISTER_QUEUE_SCAN_MS;
    // one started now would find it at once, as it takes handsQueuesInUse's list).
    const stop = watchHandsQueues({
      consumer: consumers[0]!,
      redis: connection,
      spec,
      count: COUNT,
      everyMs: 50,
      logger: createLogger('test', { level: 'silent' }),
    });
    try {
      await until(() => written([job.hand_id]), 'the hand on queue 5 written');
    } finally {
      stop();
    }
    expect(consumers[0]!.queueNames()).toEqual(['hands', 'hands-1', 'hands-2', 'hands-5']);
    await until(
      async () => (await handsQueuesInUse(connection, spec, COUNT)).length === COUNT,
      'queue 5 no longer holding a job',
    );
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });
});
