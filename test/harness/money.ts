import { ledgerTotals, runAudit, type AuditReport, type LiveTableMoney, type PrismaClient } from '@felt/db';
import { createRedis, handsQueuesInUse, redisKeys } from '@felt/platform';
import { Queue, type JobType } from 'bullmq';
import { z } from 'zod';
import type { Cluster } from './cluster.js';
import { waitFor } from './wait.js';

/**
 * Money checks against a running cluster (docs/dev/money-flows.md): the audit `npm run audit` runs
 * (scripts/audit.ts's logic: runAudit with the workers' checkpoint `money` sections and the hands
 * queue's failed set), chip conservation, and waiting until the persister has caught up.
 */

const HANDS_QUEUE = process.env.FELT_HANDS_QUEUE ?? 'hands';

/** The part of a worker's checkpoint the audit reads (as scripts/audit.ts parses it). */
const checkpointMoney = z.object({
  money: z.object({
    lastHandNo: z.number().int().nonnegative(),
    seats: z.array(
      z.object({
        userId: z.string(),
        stack: z.number().int().nonnegative(),
        appliedTopUps: z.array(z.object({ id: z.string(), applied: z.number().int().nonnegative() })).default([]),
      }),
    ),
  }),
});

/** The `money` section of a table's checkpoint, or null when there is none. */
export async function checkpointMoneyOf(cluster: Cluster, roomId: string): Promise<LiveTableMoney | null> {
  const raw = await cluster.redis.get(redisKeys(cluster.prefix).tableCheckpoint(roomId));
  if (raw === null) return null;
  return checkpointMoney.parse(JSON.parse(raw)).money;
}

/** Sums `states`' job counts over every hands queue that holds a job (as scripts/audit.ts finds them). */
async function handJobCounts(cluster: Cluster, ...states: JobType[]): Promise<number> {
  const connection = createRedis(cluster.redisUrl, { name: 'test-money-queue', maxRetriesPerRequest: null });
  try {
    const spec = { prefix: cluster.prefix, name: HANDS_QUEUE, cluster: connection.isCluster };
    let jobs = 0;
    for (const q of await handsQueuesInUse(connection, spec, 1)) {
      const queue = new Queue(q.name, { connection, prefix: q.prefix });
      for (const n of Object.values(await queue.getJobCounts(...states))) jobs += n;
      await queue.close();
    }
    return jobs;
  } finally {
    connection.disconnect();
  }
}

export interface MoneyAudit {
  readonly report: AuditReport;
  /** Every account's balance summed, grant source included: zero when no chip was made or lost. */
  readonly sum: bigint;
  /** wallets + escrow + house rake, and what the grant source paid out. */
  readonly held: bigint;
  readonly granted: bigint;
  /** Rooms whose live stacks were compared with their escrows. */
  readonly liveCompared: number;
}

/** Runs the operator's audit as `npm run audit` does, with the live stacks of the given tables. */
export async function auditCluster(cluster: Cluster, prisma: PrismaClient): Promise<MoneyAudit> {
  const failedJobs = await handJobCounts(cluster, 'failed');
  const compared = new Set<string>();
  const report = await runAudit(prisma, {
    failedJobs,
    liveTable: async (roomId) => {
      const money = await checkpointMoneyOf(cluster, roomId);
      if (money !== null) compared.add(roomId);
      return money;
    },
  });
  const totals = await ledgerTotals(prisma);
  const [row] = await prisma.$queryRaw<
    { sum: string | null }[]
  >`SELECT coalesce(sum("balance"), 0)::text AS "sum" FROM "ledger_accounts"`;
  return {
    report,
    sum: BigInt(row?.sum ?? '0'),
    held: totals.wallets + totals.escrow + totals.rake + totals.bankroll + totals.tournamentPools + totals.fees,
    granted: totals.granted,
    liveCompared: compared.size,
  };
}

/**
 * Waits until the persister has caught up with the rooms' tables: every hand the table completed
 * is persisted (the checkpoint's lastHandNo is the room's cursor), no cash-out is pending, and the
 * hands queue holds nothing waiting, delayed or active.
 */
export async function waitPersisted(
  cluster: Cluster,
  prisma: PrismaClient,
  roomIds: readonly string[],
  timeoutMs = 30_000,
): Promise<void> {
  let behind = '';
  await waitFor(
    () => `the persister to catch up (still: ${behind})`,
    async () => {
      for (const roomId of roomIds) {
        const room = await prisma.room.findUnique({
          where: { id: roomId },
          select: { lastHandNo: true, status: true },
        });
        if (!room) {
          behind = `no room ${roomId}`;
          return false;
        }
        const money = await checkpointMoneyOf(cluster, roomId);
        if (room.status !== 'closed' && money !== null && money.lastHandNo !== room.lastHandNo) {
          behind = `room ${roomId} persisted to hand ${room.lastHandNo}, its table is at ${money.lastHandNo}`;
          return false;
        }
        const pending = await prisma.cashOut.count({ where: { roomId, status: 'pending' } });
        if (pending > 0) {
          behind = `room ${roomId} has ${pending} cash-out(s) pending`;
          return false;
        }
      }
      const jobs = await handJobCounts(cluster, 'waiting', 'delayed', 'active', 'prioritized');
      behind = `${jobs} hands job(s) waiting, delayed or active`;
      return jobs === 0;
    },
    timeoutMs,
    200,
  );
}
