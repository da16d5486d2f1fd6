// Tournaments across the cluster (docs/architecture.md, "Tournaments"): SDK players register over
// HTTP, the director (on whichever worker the ring names) draws them to tables owned by several
// workers, deals level by level, moves players as tables shrink, breaks tables, places and pays every
// bust through the ledger, and names a winner. Each player follows their seat with the SDK's
// TournamentSeat (the first table from the lobby, every move by `table_moved`) and plays with a TableBot.
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

describe('a tournament on the cluster', () => {
  it('runs a tournament of 7 on tables of 3 across two workers to a winner, balancing and breaking tables, and pays every place', async () => {
    const id = await createTestTournament(cluster, {
      name: 'E2E seven',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      seats: 3,
      entrants: { min: 2, max: 7 },
      buyIn: 100,
      fee: 10,
      startingStack: 300,
      // Blinds that rise every two hands: the tournament is over in a few dozen hands.
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }, { bigBlind: 80 }, { bigBlind: 160 }],
        levelLength: { unit: 'hands', value: 2 },
      },
    });
    const players = await tournamentField(cluster, id, 7, 1);
    // Everyone is in: the start is brought forward to now (as an operator would), and the director
    // of whichever worker owns the tournament starts it at its next look.
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    try {
      const detail = await tournamentFinished(players, id, 240_000);
      // The chips in play never changed, and the winner holds them all.
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      expect(watched.samples).toBeGreaterThan(10);
      const director = (await directorOf(cluster, id))!;
      expect(director.state.finished).toBe(true);
      expect(director.state.chipsInPlay).toBe(7 * 300);
      const winner = detail.players.find((p) => p.place === 1)!;
      expect(director.state.players[winner.user_id]!.chips).toBe(7 * 300);
      // Every player has a place; first place is one player; the prizes are the pool, exactly.
      expect(detail.players).toHaveLength(7);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(700);
      expect(winner.prize).toBe(Math.max(...detail.players.map((p) => p.prize)));
      // Each player's SDK saw its own place.
      await waitFor('every seat to know its place', () => players.every((p) => p.result !== null), 20_000);
      for (const p of players) {
        const row = detail.players.find((x) => x.user_id === p.userId)!;
        expect(p.result).toEqual({ place: row.place, prize: row.prize });
      }
      // Seven players on tables of three: three tables at the start, fewer as players bust. Somebody
      // was moved (a break, or balancing).
      const tables = await cluster.db.prisma.tournamentTable.findMany({ where: { tournamentId: id } });
      expect(tables).toHaveLength(3);
      expect(tables.every((t) => t.closedAt !== null)).toBe(true);
      expect(players.some((p) => new Set(p.tables).size > 1)).toBe(true);
      // The money: buy-ins in, prizes out, fees to the house; the audit is clean.
      const report = await runAudit(cluster.db.prisma);
      expect(report.issues).toEqual([]);
      expect(report.imbalance).toBe(0n);
    } finally {
      await chips.stop();
      leaveField(players);
    }
  });

  it('late registration: two players register after the start, are seated (a new table when all are full), and are placed and paid like the rest', async () => {
    const id = await createTestTournament(cluster, {
      name: 'E2E late',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      seats: 3,
      entrants: { min: 2, max: 8 },
      buyIn: 100,
      fee: 10,
      startingStack: 300,
      lateRegistrationLevels: 2,
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }, { bigBlind: 80 }, { bigBlind: 160 }, { bigBlind: 320 }],
        levelLength: { unit: 'hands', value: 3 },
      },
    });
    const players = await tournamentField(cluster, id, 6, 3);
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    const late: Awaited<ReturnType<typeof tournamentField>> = [];
    try {
      await waitFor('the tournament to start', async () => (await directorOf(cluster, id)) !== null, 30_000, 100);
      expect((await players[0]!.lobby.getTournament(id)).late_registration_open).toBe(true);
      // Six on tables of three fill both: the first late entry opens a third table.
      late.push(...(await tournamentField(cluster, id, 2, 4)));
      await waitFor('the late players seated', () => late.every((p) => p.tables.length > 0), 30_000);
      const detail = await tournamentFinished([...players, ...late], id, 240_000);
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      const director = (await directorOf(cluster, id))!;
      expect(director.state.chipsInPlay).toBe(8 * 300);
      // At least the third table the first late entry opened. A fourth opens when busts broke that
      // table before the second late entry came and every open table was full again: it depends on
      // how fast the bots bust, so the count is a floor.
      expect(Object.keys(director.tables).length).toBeGreaterThanOrEqual(3);
      // Eight entries, eight places (players who bust in one hand with equal stacks tie, as two late
      // entries on their first 300 chips can), the whole pool paid (eight buy-ins: prizes were set at
      // the close).
      expect(detail.players).toHaveLength(8);
      expect(detail.late_registration_open).toBe(false);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(800);
      await waitFor(
        'every seat to know its place',
        () => [...players, ...late].every((p) => p.result !== null),
        20_000,
      );
      // Registration is closed for good: a ninth player is refused and pays nothing.
      await expect(tournamentField(cluster, id, 1, 5)).rejects.toMatchObject({ code: 'tournament_closed' });
      const report = await runAudit(cluster.db.prisma);
      expect(report.issues).toEqual([]);
      expect(report.imbalance).toBe(0n);
    } finally {
      await chips.stop();
      leaveField([...players, ...late]);
    }
  });

  it('re-entry: players out during late registration buy in again, are seated as their second entry, and every entry is placed and paid', async () => {
    const id = await createTestTournament(cluster, {
      name: 'E2E re-entry',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      seats: 3,
      entrants: { min: 2, max: 4 },
      buyIn: 100,
      fee: 10,
      startingStack: 200,
      lateRegistrationLevels: 3,
      reEntry: { max: 1, untilLevel: 3 },
      clock: { actionSeconds: 5 },
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }, { bigBlind: 80 }, { bigBlind: 160 }, { bigBlind: 320 }],
        levelLength: { unit: 'hands', value: 4 },
      },
    });
    // Bots that raise whenever they may and never fold: nearly every hand is an all-in, so players
    // are out from the first hands, while re-entry is open.
    const players = await tournamentField(cluster, id, 4, 6, {
      style: { aggression: 1, foldRate: 0 },
      reEnter: true,
    });
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    try {
      const detail = await tournamentFinished(players, id, 240_000);
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      const reEntered = players.filter((p) => p.reEntries > 0);
      expect(reEntered.length).toBeGreaterThan(0);
      const entries = 4 + reEntered.length;
      // One re-entry each at most (reEntry.max 1). A re-entry the lobby refused came too late: re-entry
      // had closed between the lobby's answer and the register.
      expect(players.every((p) => p.reEntries <= 1)).toBe(true);
      for (const err of players.flatMap((p) => p.reEntryErrors))
        expect(err).toMatchObject({ code: 'tournament_closed' });
      const director = (await directorOf(cluster, id))!;
      expect(director.state.chipsInPlay).toBe(entries * 200);
      // Every entry has a place, the places are 1..entries (ties share one), the pool is paid exactly.
      expect(detail.players).toHaveLength(entries);
      expect(detail.players.every((p) => p.status === 'finished')).toBe(true);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(entries * 100);
      for (const p of reEntered) {
        const rows = detail.players.filter((r) => r.user_id === p.userId);
        expect(rows.map((r) => r.entry_no).sort()).toEqual([1, 2]);
      }
      // Each SDK reports its player's last entry's place.
      await waitFor('every seat to know its place', () => players.every((p) => p.result !== null), 20_000);
      for (const p of players) {
        const last = detail.players
          .filter((r) => r.user_id === p.userId)
          .reduce((a, b) => (b.entry_no > a.entry_no ? b : a));
        expect(p.result).toEqual({ place: last.place, prize: last.prize });
      }
      const report = await runAudit(cluster.db.prisma);
      expect(report.issues).toEqual([]);
      expect(report.imbalance).toBe(0n);
    } finally {
      await chips.stop();
      leaveField(players);
    }
  }, 300_000);

  it('plays a mixed game (HORSE, its rotation at each level) of 5 on tables of 3 to a winner', async () => {
    const id = await createTestTournament(cluster, {
      name: 'E2E HORSE',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      game: 'horse',
      seats: 3,
      entrants: { min: 2, max: 5 },
      buyIn: 50,
      fee: 0,
      startingStack: 200,
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }, { bigBlind: 80 }],
        levelLength: { unit: 'hands', value: 2 },
      },
    });
    const players = await tournamentField(cluster, id, 5, 2);
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(cluster, id);
    try {
      const detail = await tournamentFinished(players, id, 240_000);
      expect((await chips.stop()).bad).toEqual([]);
      expect(rankingProblem(detail.players.map((p) => p.place))).toBeNull();
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(250);
      // The hands dealt were the rotation's games (limit hold'em first).
      const games = new Set(players.flatMap((p) => [...p.games]));
      expect(games.has('holdem')).toBe(true);
      for (const g of games) expect(['holdem', 'omaha8', 'razz', 'stud', 'stud8']).toContain(g);
      expect((await runAudit(cluster.db.prisma)).issues).toEqual([]);
    } finally {
      await chips.stop();
      leaveField(players);
    }
  }, 300_000);
});
