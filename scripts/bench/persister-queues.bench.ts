// BENCH persister-queues: the hands a second one persister writes from 1 and from 3 hands queues
// (FELT_HANDS_QUEUES), in the same run, on a 3-master Redis Cluster of the bench's own
// (test/harness/private-redis-cluster.ts) and a Postgres database of its own per run
// (docs/dev/scale-out.md, step 2; docs/operations.md, "Capacity planning").
//
// FELT_BENCH_QUEUES_ROOMS tables (default 24) each play FELT_BENCH_QUEUES_HANDS hands (default 20) in
// the money simulator (test/money/sim-table.ts, the worker's own job records); the jobs are put on the
// queues by their table's hash, as workers do, and only then does the persister start, with the
// production consumer and store (HandConsumer, PrismaMoneyStore with its pg pool, batches of 16). The
// figure is the drain rate: hands written ÷ seconds from the start to the last hand's commit.
// Everything shares this machine's cores, so the figure says what the queue count changes for one
// persister here (its Redis round trips spread over more slots), not a persister's ceiling.
import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import { createPgPool, createTestDatabase, type TestDatabase } from '@felt/db';
import {
  createLogger,
  createMetricsRegistry,
  HandJobName,
  handJobOptions,
  handsQueueIndexOf,
  handsQueues,
  type Redis,
} from '@felt/platform';
import { Queue } from 'bullmq';
import { HandConsumer } from '../../services/persister/src/hand-consumer.js';
import { PrismaMoneyStore } from '../../services/persister/src/money-store.js';
import { createRoom } from '../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../test/money/sim-table.js';
import { PrivateRedisCluster } from '../../test/harness/private-redis-cluster.js';
import type { BenchReporter } from './bench-api.js';
import { onCleanup } from './cleanup.js';
import { envInt, fixed } from './measure.js';

const ROOMS = envInt('FELT_BENCH_QUEUES_ROOMS', 24);
const HANDS = envInt('FELT_BENCH_QUEUES_HANDS', 20);

/** Every table's hands, in each table's order, played against `db`'s rooms. */
async function playHands(db: TestDatabase): Promise<HandJob[]> {
  const jobs: HandJob[] = [];
  for (let r = 0; r < ROOMS; r++) {
    const room = await createRoom(db.prisma, [
      { name: 'p1', buyIn: 200 },
      { name: 'p2', buyIn: 200 },
      { name: 'p3', buyIn: 200 },
    ]);
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (job) => Promise.resolve(void jobs.push(job)), cashOut: () => Promise.resolve() },
      new SeededRng(`bench-queues-${r}`),
    );
    for (let h = 0; h < HANDS; h++) if (!(await t.playHand())) break;
  }
  return jobs;
}

/** Hands a second one persister writes from `count` queues. */
async function drainRate(redis: Redis, count: number): Promise<{ hands: number; perSecond: number }> {
  const db = await createTestDatabase();
  const undoDb = onCleanup(() => db.drop());
  const pool = createPgPool(db.url, { max: 4 });
  const spec = { prefix: `bq${randomBytes(4).toString('hex')}:`, name: 'hands', cluster: redis.isCluster };
  const queues = handsQueues(spec, count);
  const producers = queues.map((q) => new Queue(q.name, { connection: redis, prefix: q.prefix }));
  let consumer: HandConsumer | undefined;
  try {
    const jobs = await playHands(db);
    for (const job of jobs) {
      await producers[handsQueueIndexOf(job.room_id, count)]!.add(
        HandJobName.HAND_COMPLETED,
        job,
        handJobOptions(job.hand_id),
      );
    }
    consumer = new HandConsumer({
      queueName: spec.name,
      queues,
      prefix: spec.prefix,
      connection: redis,
      store: new PrismaMoneyStore(db.prisma, () => new Date(), pool),
      logger: createLogger('bench', { level: 'silent' }),
      registry: createMetricsRegistry('bench'),
      concurrency: 4,
      waitDelayMs: 200,
    });
    const start = process.hrtime.bigint();
    consumer.start();
    for (;;) {
      if ((await db.prisma.hand.count()) >= jobs.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    return { hands: jobs.length, perSecond: jobs.length / seconds };
  } finally {
    await consumer?.close();
    for (const p of producers) {
      await p.obliterate({ force: true }).catch(() => undefined);
      await p.close();
    }
    await pool.end();
    await db.drop();
    undoDb();
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const cluster = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 0 });
  const undoCluster = onCleanup(() => cluster.stop());
  const redis = (await cluster.client({ redisOptions: { maxRetriesPerRequest: null } })) as unknown as Redis;
  try {
    const one = await drainRate(redis, 1);
    const three = await drainRate(redis, 3);
    report.info(
      `${ROOMS} tables × ${HANDS} hands queued, then one persister drains them; 3 masters (no replicas), all on this machine`,
    );
    report.figure('persister-queues', {
      hands: one.hands,
      one_queue_hands_per_s: fixed(one.perSecond, 1),
      three_queues_hands_per_s: fixed(three.perSecond, 1),
      ratio: fixed(three.perSecond / one.perSecond, 2),
    });
  } finally {
    redis.disconnect();
    await cluster.stop();
    undoCluster();
  }
}
