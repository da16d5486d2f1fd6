// Redis behind Sentinel, failed over to its replica in the middle of a hand: a primary, a replica
// and three Sentinels of the test's own (test/harness/private-sentinel.ts), never the shared Redis.
// Every service reaches Redis by `redis+sentinel://` and follows the master; the workers answer a
// command only once a replica holds its checkpoint (FELT_REDIS_WAIT_REPLICAS=1), so the failover
// loses nothing acknowledged: every acked action is in its hand's record, no chip is made or lost,
// the audit is clean, every client converges and the table deals on. The second test also kills the
// table's owner right after the failover, so the next owner reads the checkpoint from the new master:
// what the old master acknowledged alone would be missing there. The third kills the master itself
// (SIGKILL): the Sentinels notice, agree and promote a replica.
import { randomBytes } from 'node:crypto';
import { createRedis, type Redis, redisKeys } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemTotal } from '../scripts/chaos/checks.js';
import { Cluster } from './harness/cluster.js';
import { expectNothingLost, waitHandsOrReport } from './harness/fault-checks.js';
import { leaseHolder, workerById } from './harness/failover-play.js';
import { PrivateSentinelGroup } from './harness/private-sentinel.js';
import { HandRecords } from './harness/privacy.js';
import { waitFor } from './harness/wait.js';
import { TableCrew } from './sdk/crew.js';

let group: PrivateSentinelGroup;
let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
const crews: TableCrew[] = [];

beforeAll(async () => {
  // Two replicas: after a master dies, one is promoted and the other still confirms every write.
  group = await PrivateSentinelGroup.start({ replicas: 2 });
  cluster = await Cluster.start({
    workers: 2,
    gateways: 2,
    lobby: true,
    persister: true,
    redisUrl: group.url,
    env: {
      FELT_REDIS_WAIT_REPLICAS: '1',
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '5000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '200',
      // The persister's own writes are not waited for: a job's completion the old master took after
      // the promotion is lost, and the job comes back only once its lock lapses and the stalled-job
      // check runs (lock plus up to two intervals: 90 s at the defaults, past the test's 60 s wait for
      // the persister). Short ones, as the chaos cluster sets, exercise that path within the wait.
      PERSISTER_LOCK_MS: '4000',
      PERSISTER_STALLED_INTERVAL_MS: '2000',
    },
  });
  redis = createRedis(group.url, { name: 'test-fault-sentinel', maxRetriesPerRequest: null });
  // A killed master refuses connections until the Sentinels name the next one: expected here.
  redis.on('error', () => undefined);
  records = new HandRecords(group.url, cluster.prefix);
});

afterAll(async () => {
  for (const crew of crews) for (const m of crew.members) m.client.close();
  await records?.close();
  redis?.disconnect();
  await cluster?.stop();
  await group?.stop();
});

/**
 * A table of three bots and a spectator, two hands in, caught while a hand is being bet (a turn, a
 * checkpoint and the pub/sub streams live): the exact step each fault below strikes at.
 */
async function crewInBetting(namePrefix: string, seed: number) {
  const crew = await TableCrew.create({
    lobbyUrl: cluster.lobby!.url,
    game: 'holdem',
    limit: 'fl',
    players: 3,
    spectators: 1,
    namePrefix: `${namePrefix}${randomBytes(3).toString('hex')}`,
    seed,
  });
  crews.push(crew);
  await crew.waitHands(2, 60_000);
  const totalBefore = await systemTotal(cluster);
  const watcher = crew.members[0]!;
  await waitFor('a hand in its betting', () => watcher.session.state?.phase === 'betting', 30_000, 5);
  return { crew, totalBefore, hands: crew.handsCompleted.size };
}

/** The port of the Redis the test's own connection (through the Sentinels) is on. */
async function connectedPort(): Promise<number> {
  return Number(/tcp_port:(\d+)/.exec(await redis.info('server'))?.[1]);
}

/**
 * Waits for the test's own connection (a client as every service has: `redis+sentinel://`, the
 * failover detector, READONLY reconnects) to be on the master the Sentinels name now. That is
 * usually the node the fault promoted (`promoted`), but on a loaded machine the Sentinels (1 s
 * down-after) can fail over once more, to the other replica; a client must follow that one too. So
 * this is a bounded wait, and its message names every node's role.
 */
async function expectOnCurrentMaster(promoted: number): Promise<void> {
  let seen = '';
  await waitFor(
    () => `the test's connection on the Sentinels' master (the fault promoted ${promoted}); ${seen}`,
    async () => {
      const [port, master] = [await connectedPort(), await group.masterPort()];
      if (port === master && ((await redis.call('ROLE')) as unknown[])[0] === 'master') return true;
      seen = `it is on ${port}, the Sentinels name ${master}; nodes: ${await group.roles()}`;
      return false;
    },
    30_000,
    200,
  );
}

describe('Redis behind Sentinel', () => {
  it(
    'fails over mid-hand: services follow the new master, nothing acked is lost and no chip moves',
    { timeout: 300_000 },
    async () => {
      const { crew, totalBefore, hands } = await crewInBetting('fs', 19);
      const since = Date.now();
      const { from, to } = await group.failover();
      expect(to).not.toBe(from);

      await waitHandsOrReport(cluster, crew, hands + 3, 90_000, since, () => group.sentinelLogs());
      for (const p of cluster.processes()) expect(p.alive, p.name).toBe(true);
      await expectNothingLost(cluster, redis, records, crew, totalBefore);
      // The hands after the failover were played on the new master: it holds the table's checkpoint.
      expect(await redis.exists(redisKeys(cluster.prefix).tableCheckpoint(crew.tableId))).toBe(1);
      await expectOnCurrentMaster(to);
    },
  );

  it(
    'fails over and the table’s owner dies: the next owner resumes from the new master, nothing acked is lost',
    { timeout: 300_000 },
    async () => {
      const { crew, totalBefore, hands } = await crewInBetting('fk', 20);
      const since = Date.now();
      await group.failover();
      const holder = await waitFor(
        'the table’s lease holder',
        async () => (await leaseHolder(redis, cluster.prefix, crew.tableId)) ?? undefined,
      );
      const owner = workerById(cluster, holder.workerId);
      expect(owner, `lease holder ${holder.workerId} is a live worker`).toBeDefined();
      await owner!.proc.kill('SIGKILL');
      await cluster.addWorker();
      await waitFor(
        'another worker serving the table',
        async () => {
          const next = await leaseHolder(redis, cluster.prefix, crew.tableId);
          return next !== null && next.workerId !== holder.workerId;
        },
        60_000,
        100,
      );

      await waitHandsOrReport(cluster, crew, hands + 3, 120_000, since, () => group.sentinelLogs());
      await expectNothingLost(cluster, redis, records, crew, totalBefore);
    },
  );

  it(
    'the master is killed mid-hand: the Sentinels promote a replica, nothing acked is lost and no chip moves',
    { timeout: 300_000 },
    async () => {
      const { crew, totalBefore, hands } = await crewInBetting('fm', 21);
      // The worker the last test killed stays dead: every other process must live through this one.
      const living = cluster.processes().filter((p) => p.alive);
      const since = Date.now();
      const { from, to } = await group.killMaster();
      expect(to).not.toBe(from);

      await waitHandsOrReport(cluster, crew, hands + 3, 120_000, since, () => group.sentinelLogs());
      for (const p of living) expect(p.alive, p.name).toBe(true);
      await expectNothingLost(cluster, redis, records, crew, totalBefore);
      await expectOnCurrentMaster(to);
    },
  );
});
