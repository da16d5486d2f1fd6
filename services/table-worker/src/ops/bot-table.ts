#!/usr/bin/env node
// felt-bot-table: run a room as a bot-only table (or stop), for operators.
//
//   REDIS_URL=… FELT_REDIS_PREFIX=felt: npm run bot-table -w @felt/table-worker -- --room <room id> [--off]
//
// It sets (or clears) `P {table:<room>}:bots-only` and tells the workers on `P table-ops`; the owning worker
// rereads the room, fills every seat (or the room's bot-fill target) with bots and deals without
// waiting for a human. Spectators join the table as usual (join_table with spectate).
import { parseArgs } from 'node:util';
import { closeRedis, createRedis, redisKeys, RedisLayoutError, requireRedisLayout } from '@felt/platform';

const { values } = parseArgs({
  options: { room: { type: 'string' }, off: { type: 'boolean', default: false } },
});
const room = values.room ?? '';
if (!/^[0-9a-f-]{36}$/.test(room)) {
  process.stderr.write('usage: felt-bot-table --room <room id> [--off]\n');
  process.exit(2);
}
const prefix = process.env.FELT_REDIS_PREFIX ?? 'felt:';
const keys = redisKeys(prefix);
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { name: 'felt-bot-table' });
try {
  // A mark in another key layout than the workers' would never be seen.
  await requireRedisLayout(redis, prefix).catch((err: unknown) => {
    if (!(err instanceof RedisLayoutError)) throw err;
    process.stderr.write(`felt-bot-table: ${err.message}\n`);
    process.exit(1);
  });
  if (values.off) await redis.del(keys.botsOnly(room));
  else await redis.set(keys.botsOnly(room), '1');
  await redis.publish(keys.tableOps, JSON.stringify({ room_id: room }));
  process.stdout.write(`room ${room}: bot-only ${values.off ? 'off' : 'on'}\n`);
} finally {
  await closeRedis(redis);
}
