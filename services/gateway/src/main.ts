import {
  ChannelSubscriber,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  registerDependencyGauge,
  createRedis,
  loadEnv,
  onShutdown,
  refuseForeignRedisLayout,
  RingView,
  shutdownTelemetry,
} from '@felt/platform';
import { GrpcTlsConfigError, grpcChannelCredentials, grpcTlsFromEnv, type GrpcTlsFiles } from '@felt/proto';
import { blindPayloadLimit, gatewayEnv } from './config.js';
import { Gateway } from './gateway.js';

const env = loadEnv('gateway', gatewayEnv);
const logger = createLogger('gateway', { level: env.LOG_LEVEL }).child({ gatewayId: env.GATEWAY_ID });

// The workers' gRPC requires mutual TLS wherever it is configured: the same three files on this side.
let grpcTls: GrpcTlsFiles | null;
try {
  grpcTls = grpcTlsFromEnv(env);
} catch (err) {
  if (!(err instanceof GrpcTlsConfigError)) throw err;
  logger.fatal({ event: err.code }, err.message);
  process.exit(1);
}

const redis = createRedis(env.REDIS_URL, { name: `gateway:${env.GATEWAY_ID}` });
const subRedis = createRedis(env.REDIS_URL, {
  name: `gateway:${env.GATEWAY_ID}:sub`,
  maxRetriesPerRequest: null,
  // On a Redis Cluster: a subscriber connection per shard for the tables' sharded channels.
  shardedSubscribers: true,
});
for (const r of [redis, subRedis]) r.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
// The gateway reads the worker registry and the revocation keys, and subscribes to tables' channels,
// all spelled by the key layout: refuse a Redis that holds another one.
await refuseForeignRedisLayout(redis, env.FELT_REDIS_PREFIX, logger);
const subscriber = new ChannelSubscriber(subRedis);

const ring = new RingView({
  redis,
  subscriber,
  prefix: env.FELT_REDIS_PREFIX,
  refreshMs: env.FELT_HEARTBEAT_MS,
  onError: (err) => logger.warn({ err }, 'ring refresh failed'),
});

const metricsRegistry = createMetricsRegistry('gateway');
registerDependencyGauge(metricsRegistry, { redis: () => redis.ping() });

const gateway = new Gateway({
  gatewayId: env.GATEWAY_ID,
  host: env.GATEWAY_HOST,
  port: env.GATEWAY_PORT,
  secret: env.FELT_SESSION_SECRET,
  prefix: env.FELT_REDIS_PREFIX,
  allowedOrigins: env.GATEWAY_ALLOWED_ORIGINS,
  maxPayload: env.GATEWAY_MAX_PAYLOAD,
  maxBlindPayload: blindPayloadLimit(env),
  ratePerSec: env.GATEWAY_RATE_PER_SEC,
  rateBurst: env.GATEWAY_RATE_BURST,
  maxSockets: env.GATEWAY_MAX_SOCKETS,
  maxSocketsPerUser: env.GATEWAY_MAX_SOCKETS_PER_USER,
  maxSocketsPerAddress: env.GATEWAY_MAX_SOCKETS_PER_ADDRESS,
  maxTablesPerSocket: env.GATEWAY_MAX_TABLES_PER_SOCKET,
  trustProxyHops: env.GATEWAY_TRUST_PROXY,
  debugEndpoints: env.FELT_DEBUG_ENDPOINTS,
  sessionCheckMs: env.GATEWAY_SESSION_CHECK_MS,
  // A revocation published while the subscriber was reconnecting is lost: the gateway re-reads them.
  onSubscriberReady: (listener) => subRedis.on('ready', listener),
  dropRate: env.GATEWAY_TEST_DROP_RATE,
  closeBatch: env.GATEWAY_CLOSE_BATCH,
  closeIntervalMs: env.GATEWAY_CLOSE_INTERVAL_MS,
  workerCredentials: grpcChannelCredentials(grpcTls),
  redis,
  subscriber,
  ring,
  metricsRegistry,
  logger,
});

await ring.start();
const port = await gateway.start();
if (env.GATEWAY_TEST_DROP_RATE > 0) {
  logger.warn({ dropRate: env.GATEWAY_TEST_DROP_RATE }, 'GATEWAY_TEST_DROP_RATE set: dropping deliveries on purpose');
}
logger.info({ event: 'ready', port, gatewayId: env.GATEWAY_ID, workers: ring.current.members }, 'gateway ready');

// A bug in one handler must not take every socket down with it; log it and keep serving.
process.on('uncaughtException', (err) => logger.fatal({ err }, 'uncaught exception'));
process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

onShutdown(
  async () => {
    await gateway.stop();
    await ring.stop();
    await closeRedis(subRedis);
    await closeRedis(redis);
    await shutdownTelemetry();
  },
  { logger },
);
