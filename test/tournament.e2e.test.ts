// Tournaments across the cluster (docs/architecture.md, "Tournaments"): SDK players register over
// HTTP, the director (on whichever worker the ring names) draws them to tables owned by several
// workers, deals level by level, moves players as tables shrink, breaks tables, places and pays every
// bust through the ledger, and names a winner. Each player follows their seat with the SDK's
// TournamentSeat (the first table from the lobby, every move by `table_moved`) and plays with a TableBot.
import { randomUUID } from 'node:crypto';
import {
  FeltClient,
  headerWebSocketFactory,
  LobbyClient,
  TableBot,
  TournamentSeat,
  type TableSession,
} from '@felt/client';
import { createTournament, newTournament, runAudit } from '@felt/db';
import { parseTournamentConfig, type TournamentConfigInput } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Cluster } from './harness/cluster.js';
import { waitFor } from './harness/wait.js';
import { seededRandom } from './sdk/crew.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 1,
    workers: 2,
    lobby: true,
    persister: true,
    env: {
      FELT_TOURNAMENT_POLL_MS: '200',
      FELT_HAND_PAUSE_MS: '100',
      FELT_SEED_WINDOW_MS: '200',
    },
  });
});

afterAll(async () => {
  await cluster?.stop();
});

interface Player {
  readonly name: string;
  readonly userId: string;
  readonly lobby: LobbyClient;
  readonly client: FeltClient;
  readonly seat: TournamentSeat;
  readonly tables: string[];
  result: { place: number; prize: number } | null;
  bot: TableBot | null;
}

/** Signs `n` players up, registers them, and has each follow their seat with a bot. */
async function field(tournamentId: string, n: number, seed: number): Promise<Player[]> {
  const base = cluster.lobby!.url;
  const gateway = cluster.gateways[0]!.wsUrl;
  const players: Player[] = [];
  for (let i = 0; i < n; i++) {
    const lobby = new LobbyClient({ baseUrl: base });
    const name = `tp${i}-${randomUUID().slice(0, 6)}`;
    const me = await lobby.signup(name, 'tournament-player-pw');
    await lobby.registerTournament(tournamentId);
    const client = new FeltClient({
      gatewayUrls: [gateway],
      socketFactory: headerWebSocketFactory(WebSocket, { cookie: lobby.cookie! }),
      pingIntervalMs: 0,
    });
    client.connect();
    const seat = new TournamentSeat(client, lobby, tournamentId, { userId: me.user.id, pollMs: 200, checkMs: 2_000 });
    const player: Player = { name, userId: me.user.id, lobby, client, seat, tables: [], result: null, bot: null };
    seat.on('seated', (session: TableSession) => {
      player.tables.push(session.tableId);
      player.bot?.stop();
      player.bot = new TableBot(session, { random: seededRandom(seed * 31 + i), autoSitIn: false });
    });
    seat.on('finished', (r) => (player.result = r));
    players.push(player);
  }
  for (const p of players) p.seat.start();
  return players;
}

interface DirectorCheckpoint {
  readonly state: {
    readonly chipsInPlay: number;
    readonly finished: boolean;
    readonly players: Record<string, { chips: number; place: number | null }>;
  };
}

/** The director's checkpoint as Redis holds it (`P checkpoint:tournament:<id>`). */
async function directorOf(tournamentId: string): Promise<DirectorCheckpoint | null> {
  const raw = await cluster.redis.get(`${cluster.prefix}checkpoint:tournament:${tournamentId}`);
  return raw === null ? null : (JSON.parse(raw) as { state: DirectorCheckpoint }).state;
}

/**
 * Reads the director's checkpoint every few ms until stopped: the chips it holds for the players must
 * add up to the chips in play every time (a move in flight included: its chips are the player's).
 */
function watchChips(tournamentId: string): { stop(): Promise<{ samples: number; bad: string[] }> } {
  let stopped = false;
  const bad: string[] = [];
  let samples = 0;
  const run = (async () => {
    while (!stopped) {
      const d = await directorOf(tournamentId);
      if (d !== null) {
        samples++;
        const held = Object.values(d.state.players).reduce((n, p) => n + p.chips, 0);
        if (held !== d.state.chipsInPlay) bad.push(`held ${held} of ${d.state.chipsInPlay}`);
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await run;
      return { samples, bad };
    },
  };
}

async function create(input: TournamentConfigInput): Promise<string> {
  const config = parseTournamentConfig(input);
  return (await createTournament(cluster.db.prisma, newTournament(config, null))).id;
}

describe('a tournament on the cluster', () => {
  it('runs a tournament of 7 on tables of 3 across two workers to a winner, balancing and breaking tables, and pays every place', async () => {
    const id = await create({
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
    const players = await field(id, 7, 1);
    // Everyone is in: the start is brought forward to now (as an operator would), and the director
    // of whichever worker owns the tournament starts it at its next look.
    await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
    const chips = watchChips(id);
    try {
      const detail = await waitFor(
        'the tournament to finish',
        async () => {
          const t = await players[0]!.lobby.getTournament(id);
          return t.status === 'finished' ? t : undefined;
        },
        240_000,
        500,
      );
      // The chips in play never changed, and the winner holds them all.
      const watched = await chips.stop();
      expect(watched.bad).toEqual([]);
      expect(watched.samples).toBeGreaterThan(10);
      const director = (await directorOf(id))!;
      expect(director.state.finished).toBe(true);
      expect(director.state.chipsInPlay).toBe(7 * 300);
      expect(director.state.players[detail.players.find((p) => p.place === 1)!.user_id]!.chips).toBe(7 * 300);
      // Every player has a place; first place is one player; the prizes are the pool, exactly.
      expect(detail.players).toHaveLength(7);
      const places = detail.players.map((p) => p.place);
      expect(places.every((p) => p !== null && p >= 1 && p <= 7)).toBe(true);
      expect(places.filter((p) => p === 1)).toHaveLength(1);
      expect(detail.players.reduce((n, p) => n + p.prize, 0)).toBe(700);
      const winner = detail.players.find((p) => p.place === 1)!;
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
      for (const p of players) {
        p.seat.stop();
        p.bot?.stop();
        p.client.close();
      }
    }
  });
});
