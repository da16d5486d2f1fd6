import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Cluster } from './cluster.js';

const run = promisify(execFile);
const tool = fileURLToPath(new URL('../../services/table-worker/dist/ops/bot-table.js', import.meta.url));

/**
 * Runs the operator tool (`npm run bot-table -w @felt/table-worker`, built) against the cluster:
 * the room becomes a bot-only table, which the owning worker fills with bots and deals.
 */
export async function makeBotOnlyTable(cluster: Cluster, roomId: string, off = false): Promise<void> {
  await run(process.execPath, [tool, '--room', roomId, ...(off ? ['--off'] : [])], {
    env: { ...process.env, REDIS_URL: cluster.commonEnv().REDIS_URL, FELT_REDIS_PREFIX: cluster.prefix },
  });
}
