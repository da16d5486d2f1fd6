import { createPgPool, createPrisma } from '@felt/db';
import {
  closeRedis,
  createLogger,
  createMetricsRegistry,
  registerDependencyGauge,
  createRedis,
  handsQueuesInUse,
  loadEnv,
  onShutdown,
  refuseEvictingRedis,
  refuseForeignRedisLayout,
  shutdownTelemetry,
  startOpsServer,
} from '@felt/platform';
import { persisterEnv } from './config.js';
import { HandConsumer, watchHandsQueues } from './hand-consumer.js';
import { PrismaMoneyStore } from './money-store.js';
import { ScheduledAudit } from './scheduled-audit.js';

const env = loadEnv('persister', persisterEnv);
const logger = createLogger('persister', { level: env.LOG_LEVEL });

// BullMQ requires maxRetriesPerRequest: null, and does not close connections it is given.
const redis = createRedis(env.REDIS_URL, { name: 'persister', maxRetriesPerRequest: null });
redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
// Outcomes go out on their own connection, so a slow publish never queues behind BullMQ's commands.
const publisher = createRedis(env.REDIS_URL, { name: 'persister-outcomes', maxRetriesPerRequest: 2 });
publisher.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error (outcomes)'));
// An evicting Redis could drop a lease, a checkpoint or a queued hand: refuse to run on one.
await refuseEvictingRedis(redis, logger);
// The audit reads the tables' checkpoints: refuse a Redis in another key layout.
await refuseForeignRedisLayout(redis, env.FELT_REDIS_PREFIX, logger);
// Hands' hot statements go straight to pg (money/hand-sql.ts in @felt/db); Prisma keeps cash-outs,
// voids and incidents. The two pools share DATABASE_POOL_MAX: a batch of hands holds one connection,
// so a few are plenty.
const pgConnections = Math.max(1, Math.min(4, Math.floor(env.DATABASE_POOL_MAX / 2)));
const prisma = createPrisma(env.DATABASE_URL, {
  maxConnections: Math.max(1, env.DATABASE_POOL_MAX - pgConnections),
});
const pool = createPgPool(env.DATABASE_URL, { max: pgConnections });
const registry = createMetricsRegistry('persister');
registerDependencyGauge(registry, { redis: () => redis.ping(), postgres: () => prisma.$queryRaw`SELECT 1` });

// FELT_HANDS_QUEUES queues, and any queue past them that still holds jobs (the count was lowered):
// those are drained, never stranded.
const queueSpec = { prefix: env.FELT_REDIS_PREFIX, name: env.FELT_HANDS_QUEUE, cluster: redis.isCluster };
const queues = await handsQueuesInUse(redis, queueSpec, env.FELT_HANDS_QUEUES);
if (queues.length > env.FELT_HANDS_QUEUES) {
  logger.warn(
    { event: 'hands_queues_draining', queues: queues.slice(env.FELT_HANDS_QUEUES).map((q) => q.name) },
    'hands queues past FELT_HANDS_QUEUES still hold jobs: consuming them too until they are empty',
  );
}
const consumer = new HandConsumer({
  queueName: env.FELT_HANDS_QUEUE,
  queues,
  prefix: env.FELT_REDIS_PREFIX,
  connection: redis,
  publisher,
  store: new PrismaMoneyStore(prisma, () => new Date(), pool),
  logger,
  registry,
  concurrency: env.PERSISTER_CONCURRENCY,
  batchMax: env.PERSISTER_BATCH_MAX,
  batchWaitMs: env.PERSISTER_BATCH_WAIT_MS,
  lockDurationMs: env.PERSISTER_LOCK_MS,
  stalledIntervalMs: env.PERSISTER_STALLED_INTERVAL_MS,
});

// The money audit on a schedule, so an alert (not an operator remembering) notices a violation.
const audit = new ScheduledAudit({
  prisma,
  redis: publisher,
  prefix: env.FELT_REDIS_PREFIX,
  failedJobs: () => consumer.failedJobs(),
  everyMs: env.PERSISTER_AUDIT_EVERY_MS,
  logger,
  registry,
});

let stopping = false;
const ops = await startOpsServer({
  host: '0.0.0.0',
  port: env.PERSISTER_HTTP_PORT,
  registry,
  ready: async () => {
    const db = await prisma.$queryRaw`SELECT 1`.then(
      () => true,
      () => false,
    );
    const checks = { redis: redis.status === 'ready', db, consuming: consumer.isRunning(), serving: !stopping };
    return { ready: Object.values(checks).every(Boolean), checks };
  },
});

consumer.start();
// Queues that fill past FELT_HANDS_QUEUES later (a worker of a larger count mid-rollout) are taken on too.
const stopWatchingQueues = watchHandsQueues({
  consumer,
  redis,
  spec: queueSpec,
  count: env.FELT_HANDS_QUEUES,
  everyMs: env.PERSISTER_QUEUE_SCAN_MS,
  logger,
});
audit.start();
logger.info({ event: 'ready', httpPort: ops.port, queues: consumer.queueNames() }, 'persister ready');

onShutdown(
  async () => {
    stopping = true;
    stopWatchingQueues();
    // Lets the job in hand finish; BullMQ returns unfinished ones to the queue on the next start.
    await audit.stop();
    await consumer.close();
    await ops.close();
    await prisma.$disconnect();
    await pool.end();
    await closeRedis(redis);
    await closeRedis(publisher);
    await shutdownTelemetry();
  },
  { logger },
);
