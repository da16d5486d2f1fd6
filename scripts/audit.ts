// `npm run audit`: the operator's reconciliation of Felt's money (docs/operations.md, "Money"). Reads Postgres, and
// where Redis answers, the hands queues' failed sets and the live tables' stacks from the workers'
// checkpoints (their `money` section, docs/dev/money-flows.md). Prints one summary line, then one
// line per violation, then notes; exits 0 when every check holds, 1 when one does not, 2 when it
// could not run. Without REDIS_URL it reads the Redis of the cluster `npm start` runs in this checkout
// (its own redis-server, scripts/local-redis.ts), and skips Redis when none runs.
//
//   DATABASE_URL=... [REDIS_URL=... FELT_REDIS_PREFIX=felt: FELT_HANDS_QUEUE=hands] npm run audit [-- --no-redis]
import { createPrisma, runAudit, type AuditReport, type LiveTableMoney } from '@felt/db';
import { Queue } from 'bullmq';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedis, handsQueuesInUse, liveTableMoneyReader, requireRedisLayout, type Redis } from '@felt/platform';
import { redisAddress, runningLocalRedisUrl } from './local-redis.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';
const feltDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.felt');
const REDIS_URL = process.env.REDIS_URL ?? runningLocalRedisUrl(feltDir);
const PREFIX = process.env.FELT_REDIS_PREFIX ?? 'felt:';
const QUEUE = process.env.FELT_HANDS_QUEUE ?? 'hands';
const useRedis = !process.argv.includes('--no-redis');

/** Redis by any form of REDIS_URL (a single node, `redis+sentinel://`, `redis+cluster://`), or null when it does not answer in 3 s. */
async function connectRedis(): Promise<Redis | null> {
  if (!useRedis || REDIS_URL === undefined) return null;
  const redis = createRedis(
    REDIS_URL,
    { name: 'audit', maxRetriesPerRequest: null },
    { lazyConnect: true, retryStrategy: () => null, connectTimeout: 3000 },
  );
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('Redis did not answer')), 3000);
      }),
    ]);
    return redis;
  } catch {
    redis.disconnect();
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function formatReport(report: AuditReport): string[] {
  const lines = [
    `AUDIT ok=${report.ok} transactions=${report.transactions} hands=${report.hands} wallets=${report.wallets} ` +
      `imbalance=${report.imbalance} issues=${report.issues.length}`,
    `BANKROLL balance=${report.bankroll.balance} funded=${report.bankroll.funded} staked=${report.bankroll.staked} ` +
      `returned=${report.bankroll.returned} staked_24h=${report.bankroll.stakedToday}`,
    // Practice chips are conserved apart from real ones (docs/dev/money-flows.md, "Practice chips").
    `PRACTICE imbalance=${report.practiceImbalance}`,
  ];
  for (const i of report.issues) lines.push(`ISSUE ${i.code}: ${i.message}`);
  for (const n of report.notes) lines.push(`NOTE ${n}`);
  return lines;
}

async function main(): Promise<number> {
  const prisma = createPrisma(DATABASE_URL, { maxConnections: 2 });
  const redis = await connectRedis();
  const notes: string[] = [];
  try {
    let failedJobs: number | undefined;
    let liveTable: ((roomId: string) => Promise<LiveTableMoney | null>) | undefined;
    let readerNotes: string[] = [];
    if (redis) {
      // A Redis of another key layout holds the checkpoints under other names: every live table would
      // look missing. Refuse, saying why (exit 2), and never write the layout as a service would.
      await requireRedisLayout(redis, PREFIX, { write: false });
      // Every hands queue that holds a job: FELT_HANDS_QUEUES of them, and any past them.
      const spec = { prefix: PREFIX, name: QUEUE, cluster: redis.isCluster };
      failedJobs = 0;
      for (const q of await handsQueuesInUse(redis, spec, 1)) {
        const queue = new Queue(q.name, { connection: redis, prefix: q.prefix });
        failedJobs += (await queue.getJobCounts('failed')).failed ?? 0;
        await queue.close();
      }
      const reader = liveTableMoneyReader(redis, PREFIX);
      liveTable = (roomId) => reader.read(roomId);
      readerNotes = reader.notes;
    } else {
      notes.push(
        !useRedis
          ? 'Redis skipped'
          : REDIS_URL === undefined
            ? 'no REDIS_URL, and no npm start cluster runs here: queue and live stacks not checked'
            : `Redis at ${redisAddress(REDIS_URL)} did not answer: queue and live stacks not checked`,
      );
    }
    const report = await runAudit(prisma, {
      ...(liveTable ? { liveTable } : {}),
      ...(failedJobs !== undefined ? { failedJobs } : {}),
    });
    for (const line of formatReport({ ...report, notes: [...report.notes, ...readerNotes, ...notes] }))
      console.log(line);
    return report.ok ? 0 : 1;
  } finally {
    await prisma.$disconnect();
    redis?.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`AUDIT could not run: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
