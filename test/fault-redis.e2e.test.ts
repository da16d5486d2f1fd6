// Redis SIGKILLed in the middle of a hand, on a Redis of the test's own
// (test/harness/private-redis.ts), never the shared one.
// - Restarted from its disk (the append-only file, synced on every write): every service loses its
//   connections at once (pub/sub, leases, checkpoints, the hands queue) and gets them back. Nothing
//   is lost: every acked action is in its hand's record, no chip is made or lost, the audit is clean
//   and every client converges.
// - Restarted empty (no persistence, or a failover to a replica that lagged): leases, epoch
//   counters, checkpoints and queued hand jobs are gone. The epoch fence holds through Postgres
//   (rooms.owner_epoch: an epoch handed out again is refused), tables start again from the room
//   rows with table_seq still growing, no chip is made or lost and the audit is clean. Hands whose
//   jobs were only in Redis are sent again by the worker that played them, or gone with no chip
//   moved for them (superseded, if one lands after the rebuild); nothing after the restart is.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAndMeasure, systemTotal } from '../scripts/chaos/checks.js';
import { Cluster } from './harness/cluster.js';
import { describeCrew, expectNothingLost, waitHandsOrReport } from './harness/fault-checks.js';
import { PrivateRedis } from './harness/private-redis.js';
import { HandRecords } from './harness/privacy.js';
import { waitFor } from './harness/wait.js';
import { TableCrew } from './sdk/crew.js';

let server: PrivateRedis;
let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
let crew: TableCrew | undefined;

beforeAll(async () => {
  server = await PrivateRedis.start();
  cluster = await Cluster.start({
    workers: 2,
    gateways: 2,
    lobby: true,
    persister: true,
    redisUrl: server.url,
    env: {
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '5000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '200',
    },
  });
  redis = new Redis(server.url);
  records = new HandRecords(server.url, cluster.prefix);
});

/** Each member's view of the table, for a failure message. */
afterAll(async () => {
  if (crew) for (const m of crew.members) m.client.close();
  await records?.close();
  redis?.disconnect();
  await cluster?.stop();
  await server?.stop();
});

describe('Redis restarted with its data', () => {
  it(
    'mid-hand: services reconnect, tables deal on, nothing acked is lost and no chip moves',
    { timeout: 300_000 },
    async () => {
      crew = await TableCrew.create({
        lobbyUrl: cluster.lobby!.url,
        game: 'holdem',
        limit: 'fl',
        players: 3,
        spectators: 1,
        namePrefix: `fr${randomBytes(3).toString('hex')}`,
        seed: 17,
      });
      await crew.waitHands(2, 60_000);
      const totalBefore = await systemTotal(cluster);

      // The exact step: a hand is being bet, so a turn, a checkpoint and the pub/sub streams are live.
      const watcher = crew.members[0]!;
      await waitFor('a hand in its betting', () => watcher.session.state?.phase === 'betting', 30_000, 5);
      const hands = crew.handsCompleted.size;
      await server.restart({ keepData: true });

      await crew.waitHands(hands + 3, 90_000);
      for (const p of cluster.processes()) expect(p.alive, p.name).toBe(true);

      await expectNothingLost(cluster, redis, records, crew, totalBefore);
    },
  );
});

// The table rebuilt from the room rows has none of the attachments its checkpoint held. Its worker
// takes it again once the ring (empty for a moment: the workers' registrations went with the data)
// names it, and tells the gateways, which attach their connections again. Before that, clients heard
// nothing until their SDK's 25 s silence watch resynced, and a table nobody sent a command to dealt
// no hand meanwhile: CI once saw two hands in 90 s. No client may need its silence watch now.
describe('Redis restarted without its data', () => {
  it(
    'mid-hand: the fence holds, tables deal on from the room rows, no chip moves, nothing after the restart is lost',
    { timeout: 300_000 },
    async () => {
      const crew2 = await TableCrew.create({
        lobbyUrl: cluster.lobby!.url,
        game: 'holdem',
        limit: 'fl',
        players: 3,
        spectators: 1,
        namePrefix: `fx${randomBytes(3).toString('hex')}`,
        seed: 18,
      });
      crew = crew2;
      await crew2.waitHands(2, 60_000);
      const totalBefore = await systemTotal(cluster);
      const watcher = crew2.members[0]!;
      // The exact step: a hand is being bet. Earlier hands may still be on their way to Postgres (a
      // job in the queue, or held by the persister): whichever worker rebuilds the table seals the
      // room at the rows' last hand, so a late one is superseded rather than taking the number of the
      // rebuilt table's next hand (docs/dev/money-flows.md, "A table rebuilt from the rows").
      await waitFor('a hand in its betting', () => watcher.session.state?.phase === 'betting', 30_000, 5);
      // Every hand that had started by now may lose its record with Redis (its job was only there).
      const before = new Set(crew2.members.flatMap((m) => (m.bot?.actions ?? []).map((a) => a.handId)));
      for (const m of crew2.members) if (m.session.state?.hand_id) before.add(m.session.state.hand_id);
      const seqBefore = Math.max(...crew2.members.map((m) => m.session.state?.table_seq ?? 0));
      const hands = crew2.handsCompleted.size;
      const silences = (): number => crew2.members.reduce((n, m) => n + m.client.stats.resyncsByReason.silence, 0);
      const silencesBefore = silences();
      const restartedAt = Date.now();
      await server.restart({ keepData: false });

      await waitHandsOrReport(cluster, crew2, hands + 3, 90_000, restartedAt);
      for (const p of cluster.processes()) expect(p.alive, p.name).toBe(true);
      // table_seq only grows for the clients, though the checkpoint and its mark are gone. (A client
      // a step behind catches up by its next message, or the snapshot of its re-attachment.)
      await waitFor(
        () =>
          `every client past table_seq ${seqBefore}: ${crew2.members.map((m) => m.session.state?.table_seq).join(',')}`,
        () => crew2.members.every((m) => (m.session.state?.table_seq ?? 0) > seqBefore),
        60_000,
        50,
      );

      const measured = await settleAndMeasure(cluster, redis, records, crew2, totalBefore);
      expect(measured.unconverged).toEqual([]);
      const lostHands = new Set(measured.lost.problems.map((p) => /hand ([0-9a-f-]{36})/.exec(p)?.[1]));
      for (const h of lostHands) expect(before.has(h!), `hand ${h} lost after the restart`).toBe(true);
      expect(measured.lost.acked).toBeGreaterThan(10);
      expect(measured.audit).toBe('ok');
      expect(measured.chipsDelta).toBe(0n);
      // The table was built again (from the room rows) after its lease and checkpoint were gone.
      const logs = cluster.workers.flatMap((w) => w.proc.jsonLogs());
      expect(logs.filter((l) => l.event === 'table_created' && l.tableId === crew2.tableId).length).toBeGreaterThan(1);
      // The gateways heard it and attached their connections again: no client had to notice silence.
      const heard = cluster.gateways.flatMap((g) => g.proc.jsonLogs()).filter((l) => l.event === 'table_reset_heard');
      expect(heard.some((l) => l.tableId === crew2.tableId)).toBe(true);
      expect(
        silences() - silencesBefore,
        `${describeCrew(crew2)}\n${cluster.timeline(crew2.tableId, { since: restartedAt - 2_000, withGlobal: true })}`,
      ).toBe(0);
    },
  );
});
