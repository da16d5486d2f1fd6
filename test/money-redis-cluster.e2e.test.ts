// Money on a Redis Cluster (docs/dev/scale-out.md, step 2): hands played by two humans and bots at each
// of two tables at once, spread over three hands queues (FELT_HANDS_QUEUES=3), each under a hash tag
// of its own, the persister writing every hand from them; the money audit (live stacks from the
// checkpoints on the cluster) is clean and no chip was made or lost.
import { randomUUID } from 'node:crypto';
import { HandJobName, handsQueueIndexOf, handsQueues } from '@felt/platform';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { LobbyClient } from './harness/lobby-client.js';
import { auditCluster, waitPersisted } from './harness/money.js';
import { PrivateRedisCluster } from './harness/private-redis-cluster.js';
import { randomPlay, TableClient } from './harness/table-client.js';

const QUEUES = 3;
let redis: PrivateRedisCluster;
let cluster: Cluster;
let lobby: LobbyClient;
const clients: TableClient[] = [];

beforeAll(async () => {
  redis = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 1 });
  cluster = await Cluster.start({
    gateways: 2,
    workers: 2,
    lobby: true,
    persister: true,
    redisUrl: redis.url,
    env: {
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '4000',
      FELT_HAND_PAUSE_MS: '150',
      FELT_BOT_THINK_MS: '20',
      FELT_BOT_ITERATIONS: '40',
      FELT_BOT_SEED: 'money-redis-cluster',
      FELT_HANDS_QUEUES: String(QUEUES),
    },
  });
  lobby = new LobbyClient(cluster.lobby!.url);
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await cluster?.stop();
  await redis?.stop();
});

async function playTable(hands: number): Promise<string> {
  const ann = await lobby.signUp(`ann-${randomUUID().slice(0, 8)}`);
  const bob = await lobby.signUp(`bob-${randomUUID().slice(0, 8)}`);
  const room = await lobby.createRoom(ann, {
    game: 'holdem',
    limit: 'nl',
    botFill: { mode: 'fill', targetPlayers: 4 },
  });
  await lobby.joinByCode(bob, room.code);
  const g = cluster.gateways;
  const a = await TableClient.join(g[0]!.wsUrl, ann.cookie, room.sessionId, ann.userId, {
    decide: randomPlay,
    seed: 1,
  });
  const b = await TableClient.join(g[1]!.wsUrl, bob.cookie, room.sessionId, bob.userId, {
    decide: randomPlay,
    seed: 2,
  });
  clients.push(a, b);
  await a.until(() => a.received.filter((m) => m.type === 'seed_reveal').length >= hands, 90_000, `${hands} hands`);
  return room.sessionId;
}

describe('money on a Redis Cluster', () => {
  it('every hand is persisted from its table’s tagged queue and the audit is clean', async () => {
    const rooms = await Promise.all([playTable(3), playTable(3)]);
    await waitPersisted(cluster, cluster.db.prisma, rooms, 60_000);
    const hands = await cluster.db.prisma.hand.count({ where: { roomId: { in: rooms } } });
    expect(hands).toBeGreaterThanOrEqual(6);
    const audit = await auditCluster(cluster, cluster.db.prisma);
    expect(audit.report.issues).toEqual([]);
    expect(audit.report.ok).toBe(true);
    expect(audit.report.imbalance).toBe(0n);
    expect(audit.liveCompared).toBe(2);
    // Each table's hands went through the queue its id hashes to, and through no other.
    const queues = handsQueues({ prefix: cluster.prefix, name: 'hands', cluster: true }, QUEUES).map(
      (q) => new Queue(q.name, { connection: cluster.redis, prefix: q.prefix }),
    );
    try {
      const roomsOf = await Promise.all(
        queues.map(async (q) =>
          (await q.getJobs(['completed']))
            .filter((j) => j.name === HandJobName.HAND_COMPLETED)
            .map((j) => (j.data as { room_id: string }).room_id),
        ),
      );
      // (The tables play on meanwhile, so the counts are lower bounds.)
      for (const room of rooms) {
        roomsOf.forEach((held, i) => {
          const n = held.filter((r) => r === room).length;
          if (i === handsQueueIndexOf(room, QUEUES)) expect(n).toBeGreaterThanOrEqual(3);
          else expect(n).toBe(0);
        });
      }
    } finally {
      for (const q of queues) await q.close();
    }
    for (const c of clients) {
      expect(c.invalidMessages).toEqual([]);
      expect(c.hashMismatches).toBe(0);
    }
  }, 180_000);
});
