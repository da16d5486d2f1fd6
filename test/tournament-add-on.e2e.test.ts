// The add-on on the cluster (docs/architecture.md, "Tournaments"): at the first break the director
// puts the add-on on sale, players buy it through the lobby (wallet → prize pool), the director adds
// the chips at each player's table between hands, and once the break is over the prizes grow by what
// the sale brought. The level before the break is too short and too cheap for anyone to bust (bots
// that only check and call, 250 big blinds each); the level after it costs more than every stack, so
// the tournament ends a few hands later.
import { runAudit } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import {
  TOURNAMENT_CLUSTER_ENV,
  createTestTournament,
  directorOf,
  leaveField,
  rankingProblem,
  tournamentFinished,
  tournamentField,
  watchChips,
} from './harness/tournament.js';
import { waitFor } from './harness/wait.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ gateways: 1, workers: 2, lobby: true, persister: true, env: TOURNAMENT_CLUSTER_ENV });
});

afterAll(async () => {
  await cluster?.stop();
});

describe('the add-on', () => {
  it('is sold at the first break to every player still in, reaches their tables, and the prizes pay the pool it grew', async () => {
    const id = await createTestTournament(cluster, {
      name: 'E2E add-on',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      seats: 3,
      entrants: { min: 2, max: 4 },
      buyIn: 100,
      fee: 10,
      startingStack: 5_000,
      addOn: { chips: 1_000, cost: 50 },
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 8_000 }],
        levelLength: { unit: 'minutes', value: 1 },
        breaks: { everyLevels: 1, minutes: 1 },
      },
    });
    const players = await tournamentField(cluster, id, 4, 8, { style: { aggression: 0, foldRate: 0 } });
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    try {
      // Not on sale before the break.
      await waitFor('the start', async () => (await directorOf(cluster, id)) !== null, 30_000, 100);
      await expect(players[0]!.lobby.addOnTournament(id)).rejects.toMatchObject({ code: 'tournament_closed' });
      const open = await waitFor(
        'the add-on on sale',
        async () => {
          const d = await players[0]!.lobby.getTournament(id);
          return d.add_on_open ? d : undefined;
        },
        120_000,
        250,
      );
      expect(open.can_add_on).toBe(true);
      for (const p of players) {
        const before = (await p.lobby.getTournament(id)).can_add_on;
        expect(before).toBe(true);
        const bought = await p.lobby.addOnTournament(id);
        expect(bought).toMatchObject({ tournament_id: id, entry_no: 1, chips: 1_000, cost: 50, replayed: false });
        // Once per entry: the second is the first's answer, nothing charged.
        expect(await p.lobby.addOnTournament(id)).toMatchObject({ replayed: true, wallet: bought.wallet });
        expect((await p.lobby.getTournament(id)).can_add_on).toBe(false);
      }
      // The chips reach the tables during the break: the director holds them all. An add-on is given at
      // once where its table waits, else when the table reports the hand it was playing as the break
      // began, so the bound is the break (a minute) and a hand. What the director held last is in the
      // message, if it never comes.
      let held: unknown;
      await waitFor(
        () => `the add-ons at the tables; the director's last checkpoint: ${JSON.stringify(held)}`,
        async () => {
          const d = await directorOf(cluster, id);
          held = d && {
            chipsInPlay: d.state.chipsInPlay,
            onBreak: d.state.onBreak,
            addOnsQueued: d.state.addOnsQueued,
            tables: d.state.tables,
            addOnSale: d.addOnSale,
          };
          return d?.state.chipsInPlay === 4 * 6_000;
        },
        90_000,
        200,
      );
      const detail = await tournamentFinished(players, id, 240_000);
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      // Four places, the pool of four buy-ins and four add-ons paid out exactly.
      expect(detail.players).toHaveLength(4);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(4 * 100 + 4 * 50);
      const director = (await directorOf(cluster, id))!;
      expect(director.state.chipsInPlay).toBe(4 * 6_000);
      const report = await runAudit(cluster.db.prisma);
      expect(report.issues).toEqual([]);
      expect(report.imbalance).toBe(0n);
    } finally {
      await chips.stop();
      leaveField(players);
    }
  }, 300_000);
});
