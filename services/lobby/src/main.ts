import { serve } from '@hono/node-server';
import { createPrisma, migrate } from '@felt/db';
import {
  closeRedis,
  createLogger,
  createRedis,
  loadEnv,
  onShutdown,
  refuseForeignRedisLayout,
  shutdownTelemetry,
} from '@felt/platform';
import type { AddressInfo } from 'node:net';
import { createLobbyApp } from './app.js';
import { lobbyEnv } from './config.js';
import { LobbyFeed } from './lobby-feed.js';
import { DEFAULT_WEB_DIST } from './web-static.js';

const env = loadEnv('lobby', lobbyEnv);
const logger = createLogger('lobby', { level: env.LOG_LEVEL });

// Every service start applies the committed migrations (advisory-locked, so replicas may race).
const migrated = await migrate(env.DATABASE_URL);
if (migrated.applied.length > 0) logger.info({ event: 'migrated', applied: migrated.applied }, 'migrations applied');

const prisma = createPrisma(env.DATABASE_URL, { maxConnections: env.DATABASE_POOL_MAX });
// Hand history reads a replica when there is one (the primary stands behind it).
const replica =
  env.DATABASE_REPLICA_URL === undefined
    ? undefined
    : // An unreachable replica fails fast, and the primary answers (history-reader.ts).
      createPrisma(env.DATABASE_REPLICA_URL, { maxConnections: env.DATABASE_POOL_MAX, connectTimeoutMs: 2_000 });
// A bound on retries turns a Redis outage into a failed request instead of a hung one.
const redis = createRedis(env.REDIS_URL, { name: 'lobby', maxRetriesPerRequest: 2 });
redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
// The lobby writes revocations, the live lobby's keys and tables' bot-only marks: refuse a Redis that
// holds another key layout (docs/operations.md, "Upgrading the Redis key layout").
await refuseForeignRedisLayout(redis, env.FELT_REDIS_PREFIX, logger);

const lobby = createLobbyApp({
  prisma,
  ...(replica === undefined ? {} : { replica }),
  redis,
  redisPrefix: env.FELT_REDIS_PREFIX,
  sessionSecret: env.FELT_SESSION_SECRET,
  cookieSecure: env.FELT_COOKIE_SECURE,
  signupGrant: env.FELT_SIGNUP_GRANT,
  gatewayUrls: env.FELT_GATEWAY_URLS,
  cashOutMode: env.FELT_CASH_OUT_MODE,
  webDist: env.FELT_WEB_DIST ?? DEFAULT_WEB_DIST,
  logger,
  trustProxyHops: env.FELT_TRUST_PROXY,
  allowedOrigins: env.FELT_ALLOWED_ORIGINS,
  revocationCheckMs: env.FELT_REVOCATION_CHECK_MS,
  limits: {
    exempt: env.FELT_RATE_LIMIT_EXEMPT,
    loginFailsPerName: env.FELT_LOGIN_FAILS_PER_NAME,
    loginFailsPerAddress: env.FELT_LOGIN_FAILS_PER_ADDRESS,
    signupsPerAddress: env.FELT_SIGNUPS_PER_ADDRESS,
    joinMissesPerUser: env.FELT_JOIN_MISSES_PER_USER,
    joinMissesPerAddress: env.FELT_JOIN_MISSES_PER_ADDRESS,
    backoffBaseSeconds: env.FELT_BACKOFF_BASE_SECONDS,
    backoffMaxSeconds: env.FELT_BACKOFF_MAX_SECONDS,
    hashConcurrency: env.FELT_HASH_CONCURRENCY,
    hashQueue: env.FELT_HASH_QUEUE,
    signupGrantsPerAddressPerDay: env.FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY,
    maxOpenRoomsPerUser: env.FELT_MAX_OPEN_ROOMS_PER_USER,
    waitlistChangesPerUser: env.FELT_WAITLIST_CHANGES_PER_USER,
    tournamentChangesPerUser: env.FELT_TOURNAMENT_CHANGES_PER_USER,
  },
});

// Gateways fail closed while the revocation keys are incomplete: load them now, and again whenever
// Redis loses them.
// The first load is awaited, so gateways accept sessions as soon as the lobby says it is ready.
await lobby.revocationSync
  .check()
  .catch((err: unknown) => logger.warn({ event: 'revocation_check_failed', err }, 'revocation check failed'));
lobby.revocationSync.start();

// The live lobby: one replica at a time publishes the room list's changes and watched wallets.
const feed = new LobbyFeed({
  prisma,
  redis,
  prefix: env.FELT_REDIS_PREFIX,
  rooms: lobby.rooms,
  logger,
  intervalMs: env.FELT_LOBBY_FEED_MS,
});
feed.start();

// Waitlists: seats that came free (a cash-out settled, a bot left) are offered, lapsed offers go.
let keeping: Promise<unknown> | undefined;
const waitlistKeeper = setInterval(() => {
  keeping ??= lobby.rooms
    .keepWaitlists()
    .catch((err: unknown) => logger.warn({ err, event: 'waitlist_keep_failed' }, 'waitlist round failed'))
    .finally(() => (keeping = undefined));
}, env.FELT_WAITLIST_KEEP_MS);
waitlistKeeper.unref();

// Finish any room deletion that a crash cut off, before a half-deleted room can be seen.
const resumed = await lobby.rooms.finishClosingRooms();
if (resumed > 0) logger.info({ event: 'room_closures_resumed', rooms: resumed }, 'finished interrupted room closures');

// Worker mode: a closing room's table finishes the close; remind the tables until every one has.
const sweep =
  env.FELT_CASH_OUT_MODE === 'worker'
    ? setInterval(() => {
        lobby.rooms.finishClosingRooms().catch((err: unknown) => logger.warn({ err }, 'close sweep failed'));
      }, env.FELT_CLOSE_SWEEP_MS)
    : null;
sweep?.unref();

const listen = async (fetch: typeof lobby.app.fetch, port: number) => {
  const s = serve({ fetch, hostname: env.LOBBY_HOST, port });
  await new Promise<void>((resolve, reject) => {
    s.once('listening', resolve);
    s.once('error', reject);
  });
  return s;
};
const server = await listen(lobby.app.fetch, env.LOBBY_PORT);
const opsServer = await listen(lobby.ops.fetch, env.LOBBY_OPS_PORT);
const port = (server.address() as AddressInfo).port;
const opsPort = (opsServer.address() as AddressInfo).port;
logger.info(
  { event: 'ready', port, opsPort, host: env.LOBBY_HOST },
  `lobby listening on ${env.LOBBY_HOST}:${port} (operations on :${opsPort})`,
);

onShutdown(
  async () => {
    if (sweep) clearInterval(sweep);
    clearInterval(waitlistKeeper);
    await keeping;
    await lobby.revocationSync.stop();
    await feed.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => opsServer.close(() => resolve()));
    await prisma.$disconnect();
    await replica?.$disconnect();
    await closeRedis(redis);
    await shutdownTelemetry();
  },
  { logger },
);
