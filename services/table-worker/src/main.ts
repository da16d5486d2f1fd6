import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { Server } from '@grpc/grpc-js';
import { createPrisma } from '@felt/db';
import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  registerDependencyGauge,
  createRedis,
  HashRing,
  loadEnv,
  onShutdown,
  idInKey,
  redisNodes,
  refuseEvictingRedis,
  refuseForeignRedisLayout,
  redisKeys,
  RingView,
  shutdownTelemetry,
  startOpsServer,
  WorkerRegistry,
} from '@felt/platform';
import {
  GrpcTlsConfigError,
  grpcChannelCredentials,
  grpcServerCredentials,
  requireGrpcTlsOffLoopback,
  TableServiceService,
} from '@felt/proto';
import { z } from 'zod';
import { MailboxClosedError } from './actor/mailbox.js';
import { TableDirectory } from './actor/table-directory.js';
import { BullmqHandSink } from './adapters/bullmq-hand-sink.js';
import { EVENT_BUFFER_SIZE } from './table/event-buffer.js';
import { DbSeedSource } from './adapters/db-seed-source.js';
import { countedCheckpoints } from './adapters/counted-checkpoints.js';
import { RedisCheckpointStore } from './adapters/redis-checkpoint-store.js';
import { ThreadProofChecker } from './adapters/thread-proof-checker.js';
import { RedisLeases } from './adapters/redis-lease.js';
import { RedisEventPublisher } from './adapters/redis-publisher.js';
import { cryptoRandom, systemClock, timerScheduler } from './adapters/system.js';
import {
  advertisedAddress,
  drainTokenPath,
  isDrainToken,
  timingFromEnv,
  WORKER_CERT_NAME,
  workerEnv,
} from './config.js';
import { DbTournamentStore } from './adapters/db-tournament-store.js';
import { createTableService } from './grpc/table-service.js';
import { TournamentPeers } from './grpc/tournament-peers.js';
import { createWorkerMetrics } from './metrics.js';
import { watchPersistOutcomes } from './money/persist-outcomes.js';
import { rememberingSentHands, UnconfirmedHands } from './money/unconfirmed-hands.js';
import { createOwnershipMetrics } from './ownership/metrics.js';
import { TableOwnership } from './ownership/table-ownership.js';
import { Directors } from './tournament/directors.js';

const env = loadEnv('table-worker', workerEnv);
const logger = createLogger('table-worker', { level: env.LOG_LEVEL }).child({ workerId: env.WORKER_ID });
const prefix = env.FELT_REDIS_PREFIX;
const keys = redisKeys(prefix);

const TABLE_IDLE_MS = 5 * 60_000;
const SWEEP_MS = 30_000;

// The lobby may add event types; every one of them means "reread the room".
const roomEventSchema = z.object({
  room_id: z.string(),
  type: z.string(),
  user_id: z.string().optional(),
});

// The gRPC link's mutual TLS, checked before anything else starts: without it, anything that reaches
// the port could attach as any user id.
let grpcTls: ReturnType<typeof requireGrpcTlsOffLoopback>;
try {
  grpcTls = requireGrpcTlsOffLoopback(env, env.WORKER_GRPC_HOST);
} catch (err) {
  if (!(err instanceof GrpcTlsConfigError)) throw err;
  logger.fatal({ event: err.code }, err.message);
  process.exit(1);
}
if (!grpcTls) logger.warn({ event: 'grpc_plaintext', host: env.WORKER_GRPC_HOST }, 'gRPC without TLS');

const redis = createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}` });
const subRedis = createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}:sub`, maxRetriesPerRequest: null });
// BullMQ needs maxRetriesPerRequest: null and does not close the connection it is given.
const queueRedis = createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}:queue`, maxRetriesPerRequest: null });
/** Replicas that must hold a checkpoint or a queued job before it counts (Redis behind Sentinel). */
const replicaAcks = { replicas: env.FELT_REDIS_WAIT_REPLICAS, timeoutMs: env.FELT_REDIS_WAIT_MS };
// WAIT holds its connection until it returns: with replicas asked for, checkpoints get a connection
// of their own, so leases and publications never queue behind one (the hands queue has its own).
const checkpointRedis =
  replicaAcks.replicas > 0 ? createRedis(env.REDIS_URL, { name: `worker:${env.WORKER_ID}:checkpoints` }) : redis;
for (const r of new Set([redis, subRedis, queueRedis, checkpointRedis]))
  r.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
// An evicting Redis could drop a lease, a checkpoint or a queued hand: refuse to run on one.
await refuseEvictingRedis(redis, logger);
// A Redis that holds another key layout would let this worker and an older one fence the same table
// on different keys: refuse to start on one (docs/operations.md, "Upgrading the Redis key layout").
await refuseForeignRedisLayout(redis, env.FELT_REDIS_PREFIX, logger);
const subscriber = new ChannelSubscriber(subRedis);
const prisma = createPrisma(env.DATABASE_URL, { maxConnections: env.DATABASE_POOL_MAX });
const hands = new BullmqHandSink(queueRedis, prefix, env.FELT_HANDS_QUEUE, replicaAcks, env.FELT_HANDS_QUEUES);
// Hand jobs queued and not yet confirmed written: sent again if Redis loses the queue (table-directory.ts).
const unconfirmed = new UnconfirmedHands();

const metricsRegistry = createMetricsRegistry('table-worker');
registerDependencyGauge(metricsRegistry, { redis: () => redis.ping(), postgres: () => prisma.$queryRaw`SELECT 1` });
// The directory is created below; the gauge reads it lazily.
const sizeOf = { live: (): number => 0, directors: (): number => 0 };
const metrics = createWorkerMetrics(
  metricsRegistry,
  () => sizeOf.live(),
  () => sizeOf.directors(),
);

// Table leases (docs/architecture.md, "Ownership and failover"): a table is served only under its
// lease, and checkpoints are fenced by its epoch. `instance` tells this process apart from an
// earlier one with the same WORKER_ID.
const ownership: TableOwnership = new TableOwnership({
  leases: new RedisLeases({
    redis,
    prefix,
    workerId: env.WORKER_ID,
    instance: randomUUID(),
    ttlMs: env.FELT_LEASE_TTL_MS,
  }),
  logger,
  acquireWaitMs: env.FELT_LEASE_WAIT_MS,
  metrics: createOwnershipMetrics(metricsRegistry, () => ownership.size),
});

// Tournament directors and their tables talk over the workers' own gRPC link (the Tournament RPC),
// dialled with this worker's certificate; only a peer presenting a worker's certificate is heard.
const peers = new TournamentPeers({
  ring: { ownerOf: (key) => ring.ownerOf(key), member: (id) => ring.member(id), refresh: () => ring.refresh() },
  logger,
  credentials: grpcChannelCredentials(grpcTls),
  timeoutMs: env.FELT_TOURNAMENT_RPC_TIMEOUT_MS,
});

/** Engine-blind shuffle proofs are checked on these threads, never on the tables' event loop. */
const proofChecker = new ThreadProofChecker({ threads: env.FELT_BLIND_CHECK_THREADS });

/** Gateway streams open on this worker: filled by the table service, read by the directory. */
const openStreams = new Set<string>();
const directory = new TableDirectory({
  seeds: new DbSeedSource(prisma, async (tableId) => (await redis.get(keys.botsOnly(tableId))) === '1', {
    ...(env.FELT_BOT_BANKROLL_ROOM_MAX > 0 ? { perRoom: BigInt(env.FELT_BOT_BANKROLL_ROOM_MAX) } : {}),
    ...(env.FELT_BOT_BANKROLL_DAILY_MAX > 0 ? { perDay: BigInt(env.FELT_BOT_BANKROLL_DAILY_MAX) } : {}),
  }),
  checkpoints: countedCheckpoints(
    new RedisCheckpointStore(checkpointRedis, prefix, EVENT_BUFFER_SIZE, replicaAcks),
    metrics.checkpoints,
  ),
  publisher: new RedisEventPublisher(redis, prefix),
  hands: rememberingSentHands(hands, unconfirmed),
  unconfirmed,
  clock: systemClock,
  scheduler: timerScheduler(systemClock),
  random: cryptoRandom,
  timing: timingFromEnv(env),
  bot: { iterations: env.FELT_BOT_ITERATIONS },
  botSeed: env.FELT_BOT_SEED,
  heartbeatMs: env.FELT_TABLE_HEARTBEAT_MS,
  limits: {
    mailboxMax: env.WORKER_MAILBOX_MAX,
    mailboxPerUser: env.WORKER_MAILBOX_PER_USER,
    maxSpectators: env.WORKER_MAX_SPECTATORS,
  },
  logger,
  tournamentReports: { report: async (r) => void (await peers.send(r)) },
  proofChecker,
  idleMs: TABLE_IDLE_MS,
  ownership,
  // While draining, the ring still names this worker; the next owner is the ring without it.
  shouldServe: (tableId) => !stopping && ring.ownerOf(tableId)?.id === env.WORKER_ID,
  ringOwnerOf: (tableId) => ring.ownerOf(tableId)?.id,
  streamOpen: (streamId) => openStreams.has(streamId),
  successorOf: (tableId): string | undefined => {
    const others = ring.current.members.filter((m) => m !== env.WORKER_ID);
    return new HashRing(others).ownerOf(tableId);
  },
  onHandEvent: (tableId, e) => {
    metrics.hands.inc({ event: e.kind });
    if (e.kind === 'completed') metrics.handSeconds.observe(e.durationMs / 1000);
    // Hand ids and seats only: never cards, seeds or tokens.
    if (e.kind === 'voided' || e.kind === 'aborted')
      logger.warn({ event: `hand_${e.kind}`, tableId, ...e }, 'hand not played');
    else if (e.kind !== 'timeout') logger.debug({ event: `hand_${e.kind}`, tableId, ...e }, 'hand');
  },
});
sizeOf.live = () => directory.size;

const directors = new Directors({
  store: new DbTournamentStore(prisma),
  peers,
  checkpoints: new RedisCheckpointStore(checkpointRedis, prefix, EVENT_BUFFER_SIZE, replicaAcks),
  ownership,
  owns: (key) => !stopping && ring.ownerOf(key)?.id === env.WORKER_ID,
  clock: systemClock,
  scheduler: timerScheduler(systemClock),
  random: cryptoRandom,
  logger,
  pollMs: env.FELT_TOURNAMENT_POLL_MS,
  adoptTable: (tableId) => {
    if (stopping || directory.peek(tableId) !== undefined) return;
    directory.get(tableId).catch((err: unknown) => {
      if (!(err instanceof MailboxClosedError)) logger.debug({ err, tableId }, 'tournament table not taken back yet');
    });
  },
});
sizeOf.directors = () => directors.size;
const ring = new RingView({
  redis,
  subscriber,
  prefix,
  refreshMs: env.FELT_HEARTBEAT_MS,
  onError: (err) => logger.warn({ err }, 'ring refresh failed'),
});

let stopping = false;
// Set once the worker is up (below); the drain stops it.
const timers: { sweeper?: NodeJS.Timeout } = {};

// The drain (docs/operations.md, "Drain"): no new tables; each live table stops at its next hand
// boundary (or, at FELT_DRAIN_DEADLINE_MS, mid-hand: its checkpoint lets the next owner continue
// the hand). Started by SIGTERM, or earlier by the preStop hook (`node dist/ops/drain.js`).
let drainRun: Promise<{ boundary: number; deadline: number }> | undefined;
let drained: { boundary: number; deadline: number } | undefined;
function startDrain(): Promise<{ boundary: number; deadline: number }> {
  if (drainRun) return drainRun;
  stopping = true;
  if (timers.sweeper) clearInterval(timers.sweeper);
  const started = Date.now();
  logger.info(
    { event: 'draining', deadlineMs: env.FELT_DRAIN_DEADLINE_MS },
    'draining: tables hand over at hand boundaries',
  );
  drainRun = directory.drain(started + env.FELT_DRAIN_DEADLINE_MS).then((r) => {
    drained = r;
    logger.info(
      { event: 'drained', atBoundary: r.boundary, atDeadline: r.deadline, ms: Date.now() - started },
      'tables stopped for hand-over',
    );
    return r;
  });
  return drainRun;
}

// Only a process in this container can read the token (the pod's /tmp), so a stray GET on the ops
// port cannot start a drain.
const drainToken = randomUUID();
const tokenFile = drainTokenPath(env.WORKER_ID);
writeFileSync(tokenFile, drainToken, { mode: 0o600 });

const server = new Server({
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.http2.min_ping_interval_without_data_ms': 5_000,
});
const grpcPort = await new Promise<number>((resolve, reject) => {
  server.bindAsync(`${env.WORKER_GRPC_HOST}:${env.WORKER_GRPC_PORT}`, grpcServerCredentials(grpcTls), (err, port) =>
    err ? reject(err) : resolve(port),
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
    '/drain': (url) => {
      if (!isDrainToken(url.searchParams.get('token') ?? '', drainToken)) {
        return { status: 403, body: { error: 'forbidden' } };
      }
      void startDrain();
      return {
        status: 200,
        body: {
          draining: true,
          drained: drained !== undefined,
          ...(drained ? { atBoundary: drained.boundary, atDeadline: drained.deadline } : {}),
          liveTables: directory.size,
        },
      };
    },
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
  createTableService({
    workerId: env.WORKER_ID,
    directory,
    ring,
    registry: workerRegistry,
    metrics,
    logger,
    openStreams,
    drainToken,
    directors,
    // With TLS, a Tournament RPC must come from a table worker's certificate (a gateway's lets it play,
    // not order tables about).
    peerAllowed: (call) =>
      grpcTls === null || call.getAuthContext()?.sslPeerCertificate?.subject?.CN === WORKER_CERT_NAME,
  }),
);

/**
 * Bot-only tables run with nobody attached, so no request brings them to their next owner: each
 * worker starts the ones the ring gives it (`P {table:*}:bots-only`), at start-up and after every ring change.
 */
async function adoptBotTables(): Promise<void> {
  if (stopping) return;
  // Each master of a Redis Cluster holds its own slots' keys: SCAN walks them one by one.
  for (const node of redisNodes(redis)) await adoptBotTablesOn(node);
}

async function adoptBotTablesOn(node: typeof redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await node.scan(cursor, 'MATCH', keys.botsOnly('*'), 'COUNT', 200);
    cursor = next;
    for (const key of found) {
      const tableId = idInKey(keys.botsOnly, key);
      if (tableId === null || stopping || directory.peek(tableId) || ring.ownerOf(tableId)?.id !== env.WORKER_ID)
        continue;
      if ((await redis.get(key)) !== '1') continue;
      await directory
        .get(tableId)
        .then((a) => a.submit({ kind: 'refresh' }))
        .catch((err: unknown) => {
          if (!(err instanceof MailboxClosedError)) logger.warn({ err, tableId }, 'bot table not adopted');
        });
    }
  } while (cursor !== '0');
}

// Tables this worker no longer owns leave memory at once and give their leases up; gateways
// re-attach their connections to the new owner, which continues from the checkpoint (and a ring
// seen for a moment gives them back: TableDirectory.ringChanged).
ring.onChange(({ current }) => {
  metrics.ringChanges.inc();
  logger.info({ event: 'ring_changed', members: current.members }, 'ring changed');
  directory.ringChanged();
  adoptBotTables().catch((err: unknown) => logger.warn({ err }, 'bot table adoption failed'));
});

await subscriber.subscribe(keys.roomEvents, (message) => {
  let event: z.infer<typeof roomEventSchema>;
  try {
    event = roomEventSchema.parse(JSON.parse(message));
  } catch {
    logger.warn({ channel: keys.roomEvents }, 'ignoring malformed room event');
    return;
  }
  const command =
    event.type === 'member_leaving' && event.user_id !== undefined
      ? ({ kind: 'member_leaving', userId: event.user_id } as const)
      : ({ kind: 'refresh' } as const);
  const live = directory.peek(event.room_id);
  // A closing room's table refunds its members even when it is not loaded (docs/dev/money-flows.md §4).
  const run = live
    ? live.submit(command)
    : event.type === 'room_closed' && ring.ownerOf(event.room_id)?.id === env.WORKER_ID
      ? directory.get(event.room_id).then((a) => a.submit(command))
      : undefined;
  run?.catch((err: unknown) => {
    if (!(err instanceof MailboxClosedError)) logger.error({ err, tableId: event.room_id }, 'room refresh failed');
  });
});

// What the persister did with this worker's jobs (docs/dev/money-flows.md §6).
await watchPersistOutcomes(subscriber, prefix, {
  counter: metrics.persistOutcomes,
  logger,
  owns: (tableId) => ring.ownerOf(tableId)?.id === env.WORKER_ID,
  heard: (outcome) => {
    // Settled for good: written (or already), or superseded (its table was rebuilt without it).
    if (outcome.kind === 'hand' && ['written', 'duplicate', 'superseded'].includes(outcome.outcome))
      unconfirmed.confirmed(outcome.room_id, outcome.id);
    // A recorded cash-out frees its seat in the room rows, and no room event says so: the table
    // reads its rows again (a bot may take the seat; its bookkeeping of the cash-out ends).
    if (outcome.kind === 'cash_out' && (outcome.outcome === 'paid' || outcome.outcome === 'mismatch')) {
      directory
        .peek(outcome.room_id)
        ?.submit({ kind: 'refresh' })
        .catch((err: unknown) => {
          if (!(err instanceof MailboxClosedError))
            logger.warn({ err, tableId: outcome.room_id }, 'room refresh failed');
        });
    }
  },
});

// Operators switch bot-only tables on and off (the felt-bot-table tool): a live table rereads
// its room, and a table not live here is created when this worker owns it.
await subscriber.subscribe(keys.tableOps, (message) => {
  let event: { room_id: string };
  try {
    event = z.object({ room_id: z.string().min(1).max(64) }).parse(JSON.parse(message));
  } catch {
    logger.warn({ channel: keys.tableOps }, 'ignoring malformed table op');
    return;
  }
  if (ring.ownerOf(event.room_id)?.id !== env.WORKER_ID) return;
  const live = directory.peek(event.room_id);
  const run = live
    ? live.submit({ kind: 'refresh' })
    : directory.get(event.room_id).then((a) => a.submit({ kind: 'refresh' }));
  run.catch((err: unknown) => {
    if (!(err instanceof MailboxClosedError)) logger.warn({ err, tableId: event.room_id }, 'table op failed');
  });
});

await ring.start();
ownership.start();
await workerRegistry.start();
await ring.refresh();
adoptBotTables().catch((err: unknown) => logger.warn({ err }, 'bot table adoption failed'));
directors.start();

const sweeper = setInterval(() => {
  directory
    .sweep()
    .then((evicted) => {
      if (evicted.length > 0) logger.info({ event: 'tables_evicted', count: evicted.length }, 'idle tables evicted');
    })
    .catch((err: unknown) => logger.error({ err }, 'sweep failed'));
  // A bot table whose adoption failed (its lease was still held elsewhere) is retried here.
  adoptBotTables().catch((err: unknown) => logger.warn({ err }, 'bot table adoption failed'));
}, SWEEP_MS);
sweeper.unref();
timers.sweeper = sweeper;

logger.info(
  { event: 'ready', grpcPort, httpPort: ops.port, workerId: env.WORKER_ID, addr: advertise.addr },
  'table worker ready',
);

// SIGTERM: the drain (unless the preStop hook started it); then the worker leaves the ring, so
// gateways re-attach every connection at the tables' next owners, and releases the leases, so those
// owners start at once instead of waiting for them to expire.
onShutdown(
  async () => {
    await startDrain();
    await directors.close();
    await workerRegistry.stop().catch((err: unknown) => logger.warn({ err }, 'deregister failed'));
    await directory.releaseAll();
    ownership.stop();
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
    peers.close();
    await ops.close();
    await hands.close();
    await proofChecker.close();
    await prisma.$disconnect();
    await closeRedis(queueRedis);
    if (checkpointRedis !== redis) await closeRedis(checkpointRedis);
    await closeRedis(subRedis);
    await closeRedis(redis);
    rmSync(tokenFile, { force: true });
    await shutdownTelemetry();
  },
  { logger, graceMs: env.FELT_DRAIN_DEADLINE_MS + 8_000 },
);
