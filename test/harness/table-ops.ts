import { redisKeys } from '@felt/platform';
import type { Cluster } from './cluster.js';

/**
 * What the operator tool (felt-bot-table) does: marks a room as a bot-only table and tells the
 * owning worker, which fills it with bots and deals without humans.
 */
export async function makeBotOnlyTable(cluster: Cluster, roomId: string): Promise<void> {
  const keys = redisKeys(cluster.prefix);
  await cluster.redis.set(keys.botsOnly(roomId), '1');
  await cluster.redis.publish(keys.tableOps, JSON.stringify({ room_id: roomId }));
}
