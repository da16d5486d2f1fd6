#!/usr/bin/env node
// felt-redis-migrate: move a Redis written by an older release to this release's key layout.
//
//   REDIS_URL=… FELT_REDIS_PREFIX=felt: npm run redis:migrate          (from the repository)
//   REDIS_URL=… FELT_REDIS_PREFIX=felt: node dist/ops/redis-migrate.js (in a worker image)
//
// Stop every worker, gateway, lobby and persister first: it refuses while a worker beats. It renames
// each key (value and TTL kept) and then sets `P layout`; running it again is safe. Prints one line
// `REDIS_LAYOUT layout=… moved=… conflicts=…` and exits 0 when the layout is set, 1 when it is not.
// docs/operations.md, "Upgrading the Redis key layout".
import { closeRedis, createRedis, migrateRedisLayout, RedisLayoutError } from '@felt/platform';

const prefix = process.env.FELT_REDIS_PREFIX ?? 'felt:';
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  name: 'felt-redis-migrate',
  maxRetriesPerRequest: 2,
});
let code = 1;
try {
  if (redis.isCluster)
    throw new RedisLayoutError('a Redis Cluster starts in the current layout: nothing to migrate', 'cluster');
  const result = await migrateRedisLayout(redis, prefix, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `REDIS_LAYOUT layout=${result.layout ?? 'unset'} moved=${result.moved} conflicts=${result.conflicts.length}\n`,
  );
  code = result.conflicts.length === 0 ? 0 : 1;
} catch (err) {
  process.stderr.write(`felt-redis-migrate: ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  await closeRedis(redis);
}
process.exit(code);
