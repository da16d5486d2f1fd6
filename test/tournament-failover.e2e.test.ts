// A multi-table tournament of 60 SDK players on three workers, with workers killed along the way
// (docs/architecture.md, "Tournaments", failover): first the director's worker, then a worker that
// owns tables, then the director's worker again during hand-for-hand on the bubble, each SIGKILLed and
// replaced. The tournament goes on to one winner; no player is lost or
// seated twice; the chips in play never change at any checkpoint the director writes; every place is
// paid from the prize pool through the ledger, and the audit is clean.
import { placePrizes } from '@felt/engine';
import { runAudit } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { leaseHolder, workerById } from './harness/failover-play.js';
import {
  TOURNAMENT_CLUSTER_ENV,
  createTestTournament,
  directorOf,
  leaveField,
  rankingProblem,
  tournamentFinished,
  tournamentField,
  watchChips,
  type DirectorCheckpoint,
} from './harness/tournament.js';
import { waitFor } from './harness/wait.js';

const PLAYERS = 60;
const STACK = 1_000;
const BUY_IN = 100;

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 2,
    workers: 3,
    lobby: true,
    persister: true,
    env: { ...TOURNAMENT_CLUSTER_ENV, FELT_LEASE_TTL_MS: '2000', FELT_LEASE_WAIT_MS: '3000' },
  });
});

afterAll(async () => {
  await cluster?.stop();
});

/** The director's state once `check` holds of it. */
function directorWhen(id: string, what: string, check: (d: DirectorCheckpoint) => boolean, timeoutMs = 240_000) {
  return waitFor(
    what,
    async () => {
      const d = await directorOf(cluster, id);
      return d !== null && check(d) ? d : undefined;
    },
    timeoutMs,
    100,
  );
}

/** SIGKILLs a worker and starts a replacement (the ring gives its tables and directors to the others). */
async function kill(workerId: string): Promise<void> {
  const victim = workerById(cluster, workerId);
  if (victim === undefined) throw new Error(`${workerId} is not a live worker`);
  await victim.proc.kill('SIGKILL');
  await cluster.addWorker();
}

describe('a 60-player tournament on three workers, with workers killed', () => {
  it('finds one winner, pays every place, keeps the chips in play, and the ledger balances', async () => {
    const id = await createTestTournament(cluster, {
      name: 'Failover 60',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      seats: 9,
      entrants: { min: 2, max: PLAYERS },
      buyIn: BUY_IN,
      fee: 10,
      startingStack: STACK,
      structure: {
        levels: [{ bigBlind: 50 }, { bigBlind: 100 }, { bigBlind: 200 }, { bigBlind: 400 }, { bigBlind: 800 }],
        levelLength: { unit: 'hands', value: 2 },
      },
    });
    const players = await tournamentField(cluster, id, PLAYERS, 7);
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    try {
      // Kill 1: the director's worker, once hands are being reported.
      const started = await directorWhen(id, 'hands to be reported', (d) =>
        d.state.tables.some((t) => t.lastHandNo >= 1),
      );
      expect(Object.keys(started.tables)).toHaveLength(7);
      const director = await leaseHolder(cluster.redis, cluster.prefix, `tournament:${id}`);
      expect(director).not.toBeNull();
      await kill(director!.workerId);

      // Kill 2: once the field is halved, a worker that owns open tables (another than the director's
      // if there is one).
      const halved = await directorWhen(id, 'half the field to be out', (d) => d.state.remaining <= PLAYERS / 2);
      const directorNow = (await leaseHolder(cluster.redis, cluster.prefix, `tournament:${id}`))?.workerId;
      const owners = new Set<string>();
      for (const t of halved.state.tables.filter((x) => !x.closed)) {
        const h = await leaseHolder(cluster.redis, cluster.prefix, halved.tables[String(t.table)]!);
        if (h && workerById(cluster, h.workerId)) owners.add(h.workerId);
      }
      const target = [...owners].find((w) => w !== directorNow) ?? [...owners][0] ?? directorNow!;
      await kill(target);

      // Kill 3: the director's worker again, during hand-for-hand on the bubble if the tournament
      // gets there while we look (a bubble can burst within one round).
      const bubble = await directorWhen(
        id,
        'the bubble, or the end',
        (d) => d.state.handForHand.active || d.state.finished,
      );
      if (bubble.state.handForHand.active) {
        const holder = await leaseHolder(cluster.redis, cluster.prefix, `tournament:${id}`);
        if (holder && workerById(cluster, holder.workerId)) await kill(holder.workerId);
      }

      const detail = await tournamentFinished(players, id, 420_000);
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      const end = (await directorOf(cluster, id))!;
      expect(end.state.finished).toBe(true);
      expect(end.state.chipsInPlay).toBe(PLAYERS * STACK);
      // One winner, holding every chip; every player placed once.
      const winners = detail.players.filter((p) => p.place === 1);
      expect(winners).toHaveLength(1);
      expect(end.state.players[winners[0]!.user_id]!.chips).toBe(PLAYERS * STACK);
      expect(detail.players).toHaveLength(PLAYERS);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      // Paid per the chart: the prizes add up to the pool, and a better place never wins less.
      const pool = PLAYERS * BUY_IN;
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(pool);
      // Players who tie share a place: their shares differ by at most the odd chip (given in seat
      // order, not by merit); across places, a better place's smallest share is at least the next one's largest.
      const byPlace = [...detail.players].sort((a, b) => a.place! - b.place! || b.prize - a.prize);
      for (let i = 1; i < byPlace.length; i++) {
        const [better, worse] = [byPlace[i - 1]!, byPlace[i]!];
        if (worse.place === better.place)
          expect(better.prize - worse.prize, `tie at ${worse.place}`).toBeLessThanOrEqual(1);
        else expect(worse.prize, `place ${worse.place} after ${better.place}`).toBeLessThanOrEqual(better.prize);
      }
      const chart = placePrizes(pool, PLAYERS);
      expect(winners[0]!.prize).toBe(chart[0]);
      // Nobody placed below the chart is paid. Players who bust in one hand (or one hand-for-hand round)
      // with equal stacks tie and share their places' prizes, so a tie at the last paid place can pay
      // more players than the chart has places (CI once saw 11 paid for a chart of 9).
      for (const p of detail.players) if (p.place! > chart.length) expect(p.prize, `place ${p.place}`).toBe(0);
      // The ledger: the pool is empty, the audit clean.
      const report = await runAudit(cluster.db.prisma);
      expect(report.issues).toEqual([]);
      expect(report.imbalance).toBe(0n);
    } finally {
      await chips.stop();
      leaveField(players);
    }
  }, 300_000);
});
