import { Server, ServerCredentials } from '@grpc/grpc-js';
import { createPrisma } from '@felt/db';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  loadEnv,
  onShutdown,
  redisKeys,
  RingView,
  shutdownTelemetry,
  startOpsServer,
  WorkerRegistry,
} from '@felt/platform';
import { TableServiceService } from '@felt/proto';
import { z } from 'zod';
import { MailboxClosedError } from './actor/mailbox.js';
import { TableDirectory } from './actor/table-directory.js';
import { DbSeedSource } from './adapters/db-seed-source.js';
import { RedisCheckpointStore } from './adapters/redis-checkpoint-store.js';
import { RedisEventPublisher } from './adapters/redis-publisher.js';
import { advertisedAddress, workerEnv } from './config.js';
import { createTableService } from './grpc/table-service.js';
import { createWorkerMetrics } from './metrics.js';

const env = loadEnv('table-worker', workerEnv);
const logger = createLogger('table-worker', { level: env.LOG_LEVEL }).child({ workerId: env.WORKER_ID });
const prefix = env.FELT_REDIS_PREFIX;
const keys = redisKeys(prefix);

const TABLE_IDLE_MS = 5 * 60_000;
const SWEEP_MS = 30_000;

const roomEventSchema = z.object({
  room_id: z.string(),
  type: z.enum(['member_joined', 'member_left', 'room_closed']),
  user_id: z.string().optional(),
});

const redis = createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}` });
const subRedis = createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}:sub`, maxRetriesPerRequest: null });
for (const r of [redis, subRedis]) r.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
const subscriber = new ChannelSubscriber(subRedis);
const prisma = createPrisma(env.DATABASE_URL);

const directory = new TableDirectory({
  seeds: new DbSeedSource(prisma),
  checkpoints: new RedisCheckpointStore(redis, prefix),
  publisher: new RedisEventPublisher(redis, prefix),
  clock: { now: () => Date.now() },
  logger,
  idleMs: TABLE_IDLE_MS,
});

const metricsRegistry = createMetricsRegistry('table-worker');
const metrics = createWorkerMetrics(metricsRegistry, () => directory.size);
const ring = new RingView({
  redis,
  subscriber,
  prefix,
  refreshMs: env.FELT_HEARTBEAT_MS,
  onError: (err) => logger.warn({ err }, 'ring refresh failed'),
});

let stopping = false;

const server = new Server({
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.http2.min_ping_interval_without_data_ms': 5_000,
});
const grpcPort = await new Promise<number>((resolve, reject) => {
  server.bindAsync(
    `${env.WORKER_GRPC_HOST}:${env.WORKER_GRPC_PORT}`,
    ServerCredentials.createInsecure(),
    (err, port) => (err ? reject(err) : resolve(port)),
  );
});
const advertise = advertisedAddress(env.WORKER_ADVERTISE_ADDR, grpcPort);

// Created once the ops port is known (its address goes into the registry entry).
const holder: { registry: WorkerRegistry | undefined } = { registry: undefined };
const ops = await startOpsServer({
  host: env.WORKER_GRPC_HOST,
  port: env.WORKER_HTTP_PORT,
  registry: metricsRegistry,
  ready: () => {
    const checks = {
      redis: redis.status === 'ready',
      registered: holder.registry?.isRegistered ?? false,
      serving: !stopping,
    };
    return { ready: Object.values(checks).every(Boolean), checks };
  },
  routes: {
    // Lets tests (and operators) compare this worker's ring with a gateway's.
    '/debug/ring': (url) => {
      const table = url.searchParams.get('table');
      return {
        status: 200,
        body: {
          workerId: env.WORKER_ID,
          members: ring.current.members,
          owner: table ? (ring.ownerOf(table)?.id ?? null) : null,
          liveTables: directory.size,
        },
      };
    },
  },
});

const workerRegistry = new WorkerRegistry({
  redis,
  prefix,
  member: { id: env.WORKER_ID, addr: advertise.addr, httpAddr: `${advertise.host}:${ops.port}` },
  heartbeatMs: env.FELT_HEARTBEAT_MS,
  ttlMs: env.FELT_MEMBER_TTL_MS,
  onError: (err) => logger.warn({ err }, 'heartbeat failed'),
});
holder.registry = workerRegistry;

server.addService(
  TableServiceService,
  createTableService({ workerId: env.WORKER_ID, directory, ring, registry: workerRegistry, metrics, logger }),
);

// Tables this worker no longer owns leave memory at once; gateways re-attach their connections to
// the new owner, which continues table_seq from the checkpoint.
ring.onChange(({ current }) => {
  metrics.ringChanges.inc();
  logger.info({ event: 'ring_changed', members: current.members }, 'ring changed');
  for (const tableId of directory.tableIds()) {
    if (ring.ownerOf(tableId)?.id !== env.WORKER_ID) {
      directory.evict(tableId).catch((err: unknown) => logger.error({ err, tableId }, 'evict failed'));
    }
  }
});

await subscriber.subscribe(keys.roomEvents, (message) => {
  let event: z.infer<typeof roomEventSchema>;
  try {
    event = roomEventSchema.parse(JSON.parse(message));
  } catch {
    logger.warn({ channel: keys.roomEvents }, 'ignoring malformed room event');
    return;
  }
  const actor = directory.peek(event.room_id);
  if (!actor) return;
  actor.submit({ kind: 'refresh' }).catch((err: unknown) => {
    if (!(err instanceof MailboxClosedError)) logger.error({ err, tableId: event.room_id }, 'room refresh failed');
  });
});

await ring.start();
await workerRegistry.start();
await ring.refresh();

const sweeper = setInterval(() => {
  directory
    .sweep()
    .then((evicted) => {
      if (evicted.length > 0) logger.info({ event: 'tables_evicted', count: evicted.length }, 'idle tables evicted');
    })
    .catch((err: unknown) => logger.error({ err }, 'sweep failed'));
}, SWEEP_MS);
sweeper.unref();

logger.info(
  { event: 'ready', grpcPort, httpPort: ops.port, workerId: env.WORKER_ID, addr: advertise.addr },
  'table worker ready',
);

onShutdown(
  async () => {
    stopping = true;
    clearInterval(sweeper);
    // Tables first: once the ring moves them, the gateways close their streams here, and a table
    // still running would publish those connections as disconnected before the next owner takes
    // over. Requests in the short gap until the ring moves are refused as unavailable.
    await directory.close();
    // Then leave the ring, so gateways re-attach every connection at the tables' next owners.
    await workerRegistry.stop().catch((err: unknown) => logger.warn({ err }, 'deregister failed'));
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 2_000);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
    await ring.stop();
    await ops.close();
    await prisma.$disconnect();
    await closeRedis(subRedis);
    await closeRedis(redis);
    await shutdownTelemetry();
  },
  { logger },
);
