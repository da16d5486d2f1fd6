// The link between a table's owner and Redis stalls for longer than the lease (no reset, no FIN:
// bytes wait in the buffers, as behind a switch that stops forwarding), then recovers. Each worker
// reaches Redis through its own TCP forwarder (test/harness/tcp-proxy.ts) so one link can stall
// alone (the cluster's `workerLinks`). The owner cannot renew, so its lease lapses; the other worker takes the table under a
// higher epoch and continues the hand from the checkpoint. When the link comes back, everything the
// stalled worker had queued reaches Redis late: its fenced writes are refused, it stops serving the
// table, and no stale write is accepted. Nothing is lost: every acked action is in its hand's
// record, no chip moves, the audit is clean and every client converges.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemTotal } from '../scripts/chaos/checks.js';
import { Cluster, type WorkerHandle } from './harness/cluster.js';
import { expectNothingLost } from './harness/fault-checks.js';
import { CheckpointWatch, leaseHolder } from './harness/failover-play.js';
import { HandRecords } from './harness/privacy.js';
import { pause, waitFor } from './harness/wait.js';
import { TableCrew } from './sdk/crew.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LEASE_TTL_MS = 2_500;
const MEMBER_TTL_MS = 3_000;

let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
let crew: TableCrew | undefined;

beforeAll(async () => {
  cluster = await Cluster.start({
    workers: 2,
    gateways: 2,
    lobby: true,
    persister: true,
    workerLinks: true,
    env: {
      FELT_MEMBER_TTL_MS: String(MEMBER_TTL_MS),
      FELT_LEASE_TTL_MS: String(LEASE_TTL_MS),
      FELT_LEASE_WAIT_MS: '2000',
      FELT_ACTION_MS: '6000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '300',
    },
  });
  redis = new Redis(REDIS_URL);
  records = new HandRecords(REDIS_URL, cluster.prefix);
});

afterAll(async () => {
  if (crew) for (const m of crew.members) m.client.close();
  for (const link of cluster?.workerLinks.values() ?? []) link.resume();
  await records?.close();
  redis?.disconnect();
  await cluster?.stop();
});

describe('a worker’s link to Redis stalls past the lease', () => {
  it(
    'the other worker takes the table under a higher epoch, the stalled one’s late writes are refused, nothing is lost',
    { timeout: 300_000 },
    async () => {
      crew = await TableCrew.create({
        lobbyUrl: cluster.lobby!.url,
        game: 'holdem',
        limit: 'fl',
        players: 3,
        spectators: 1,
        namePrefix: `fl${randomBytes(3).toString('hex')}`,
        seed: 19,
      });
      const watch = new CheckpointWatch(redis, cluster.prefix, () => [crew!.tableId]);
      watch.start();
      try {
        await crew.waitHands(2, 60_000);
        const totalBefore = await systemTotal(cluster);

        // The exact step: a hand is being bet at its owner.
        const watcher = crew.members[0]!;
        await waitFor('a hand in its betting', () => watcher.session.state?.phase === 'betting', 30_000, 5);
        const holder = await leaseHolder(redis, cluster.prefix, crew.tableId);
        const owner: WorkerHandle = cluster.workers.find((w) => w.id === holder?.workerId)!;
        expect(owner).toBeDefined();
        const link = cluster.workerLinks.get(owner.id)!;
        const hands = crew.handsCompleted.size;
        link.stall();
        // The other worker holds the table under a higher epoch while the link is still stalled.
        const taken = await waitFor(
          'the other worker to take the table',
          async () => {
            const h = await leaseHolder(redis, cluster.prefix, crew!.tableId);
            return h !== null && h.workerId !== owner.id ? h : undefined;
          },
          30_000,
          100,
        );
        expect(taken.epoch).toBeGreaterThan(holder!.epoch);
        await pause(1_000, 'the link stays stalled a while after the takeover');
        link.resume();

        await crew.waitHands(hands + 3, 90_000);
        for (const p of cluster.processes()) expect(p.alive, p.name).toBe(true);
        // The stalled worker found out: it gave the table up (its lease lapsed, or a late write was refused).
        await waitFor('the stalled worker to give the table up', () =>
          owner.proc
            .jsonLogs()
            .some(
              (l) =>
                l.tableId === crew!.tableId &&
                (l.event === 'lease_lost' || l.event === 'stale_write_refused' || l.event === 'table_evicted'),
            ),
        );

        await expectNothingLost(cluster, redis, records, crew, totalBefore);
        expect(watch.staleAccepted).toBe(0);
      } finally {
        await watch.stop();
      }
    },
  );
});
