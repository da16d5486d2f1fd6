import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import {
  MoneyJobName,
  cashOutJobOptions,
  createTestDatabase,
  runAudit,
  type CashOutJob,
  type TestDatabase,
} from '@felt/db';
import { bullmqPrefix, closeRedis, createRedis, HandJobName, handJobOptions, type Redis } from '@felt/platform';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceProcess } from './harness/index.js';
import { createRoom, heldSink, until } from './money/fixtures.js';
import { SimTable, type HandJob } from './money/sim-table.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A persister killed in the middle of a batch. Every hand job is one Postgres transaction, so a kill
 * leaves each hand either whole or absent; BullMQ hands the interrupted jobs to the next persister once
 * their locks lapse, and UNIQUE(hand id) turns any re-run into a no-op.
 */
describe('a persister killed mid-batch', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  const queueName = `hands-${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let redis: Redis;
  let queue: Queue;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = createRedis(REDIS_URL, { name: 'crash-test', maxRetriesPerRequest: null });
    queue = new Queue(queueName, { connection: redis, prefix: bullmqPrefix(prefix) });
  });

  afterAll(async () => {
    for (const p of procs) await p.kill();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    if (redis) await closeRedis(redis);
    await db?.drop();
  });

  const start = (name: string): Promise<ServiceProcess> =>
    ServiceProcess.start('persister', name, {
      DATABASE_URL: db.url,
      REDIS_URL,
      FELT_REDIS_PREFIX: prefix,
      FELT_HANDS_QUEUE: queueName,
      PERSISTER_HTTP_PORT: '0',
      PERSISTER_CONCURRENCY: '4',
      // Short locks, so that the killed persister's jobs come back within the test.
      PERSISTER_LOCK_MS: '4000',
      PERSISTER_STALLED_INTERVAL_MS: '1000',
    }).then((p) => (procs.push(p), p));

  it('persists every hand exactly once after a restart, and pays every cash-out once', async () => {
    // Three tables play a session; one player leaves each table part-way through.
    const hands: HandJob[] = [];
    const cashOuts: CashOutJob[] = [];
    for (const r of [1, 2, 3]) {
      const room = await createRoom(db.prisma, [
        { name: `a${r}`, buyIn: 200 },
        { name: `b${r}`, buyIn: 200 },
        { name: `c${r}`, buyIn: 200 },
        { name: `d${r}`, buyIn: 200 },
      ]);
      const sink = heldSink();
      const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`crash-${r}`));
      for (let i = 0; i < 14 && (await t.playHand()); i++) {
        if (i === 4) {
          await db.prisma.membership.update({
            where: { id: room.users[r]!.membershipId },
            data: { leaveRequestedAt: new Date() },
          });
          await t.sync();
        }
      }
      hands.push(...sink.hands);
      cashOuts.push(...sink.cashOuts);
    }
    expect(hands.length).toBeGreaterThan(25);
    expect(cashOuts).toHaveLength(3);

    const first = await start('persister-1');
    for (const h of hands) await queue.add(HandJobName.HAND_COMPLETED, h, handJobOptions(h.hand_id));
    for (const c of cashOuts) await queue.add(MoneyJobName.CASH_OUT_REQUESTED, c, cashOutJobOptions(c.request_id));

    await until(
      async () => (await db.prisma.hand.count()) >= 8,
      () => `the first hands; logs:\n${first.logs.slice(-15).join('\n')}`,
    );
    expect((await queue.getJobCounts('active')).active).toBeGreaterThan(0);
    expect(await first.kill('SIGKILL')).toBeNull();
    const atKill = await db.prisma.hand.count();
    expect(atKill).toBeLessThan(hands.length);

    const second = await start('persister-2');
    await until(async () => (await db.prisma.hand.count()) === hands.length, 'every hand', 90_000);
    await until(
      async () => (await db.prisma.cashOut.count({ where: { status: 'paid' } })) === cashOuts.length,
      'every cash-out',
    );

    // Exactly once: one row per hand id, and each room's hands are 1..n with its cursor at n.
    const rows = await db.prisma.hand.findMany({ select: { handId: true, roomId: true, handNo: true } });
    expect(new Set(rows.map((r) => r.handId)).size).toBe(hands.length);
    expect(rows.map((r) => r.handId).sort()).toEqual(hands.map((h) => h.hand_id).sort());
    const ledgerHands = await db.prisma.ledgerTransaction.groupBy({ by: ['handId'], where: { kind: 'hand_result' } });
    expect(ledgerHands.length).toBeLessThanOrEqual(hands.length);
    const audit = await runAudit(db.prisma);
    expect(audit.issues).toEqual([]);
    expect(audit.hands).toBe(hands.length);
    await until(
      async () => (await queue.getJobCounts('completed')).completed === hands.length + cashOuts.length,
      'the queue to drain',
    );
    expect((await queue.getJobCounts('failed')).failed).toBe(0);
    expect(await second.stop()).toBe(0);
  }, 300_000);
});
