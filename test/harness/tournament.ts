// Tournaments through a real cluster: a field of SDK players (each follows their seat with the SDK's
// TournamentSeat and plays with a TableBot), the director's checkpoint as Redis holds it, and a watch
// on the chips in play. Used by the tournament e2e suites and `npm run demo -- --tournament`.
import { randomUUID } from 'node:crypto';
import {
  FeltClient,
  headerWebSocketFactory,
  LobbyClient,
  TableBot,
  TournamentSeat,
  type BotStyle,
  type TableSession,
} from '@felt/client';
import { createTournament, newTournament } from '@felt/db';
import { redisKeys } from '@felt/platform';
import { parseTournamentConfig, type LobbyTournamentDetail, type TournamentConfigInput } from '@felt/protocol';
import WebSocket from 'ws';
import { seededRandom } from '../sdk/crew.js';
import type { Cluster } from './cluster.js';
import { waitFor } from './wait.js';

export interface TournamentPlayer {
  readonly name: string;
  readonly userId: string;
  readonly lobby: LobbyClient;
  readonly client: FeltClient;
  readonly seat: TournamentSeat;
  /** Every table the player was seated at, in order. */
  readonly tables: string[];
  /** The games of the hands the player's tables dealt (`table_state.variant.game`). */
  readonly games: Set<string>;
  result: { place: number; prize: number } | null;
  bot: TableBot | null;
  /** Re-entries bought (with `reEnter`), and those the lobby refused. */
  reEntries: number;
  reEntryErrors: unknown[];
}

export interface FieldOptions {
  /** The bots' play (default: the SDK's DEFAULT_BOT_STYLE). */
  readonly style?: BotStyle;
  /** Buy in again each time an entry is out and the lobby takes a re-entry. */
  readonly reEnter?: boolean;
}

/** Environment a cluster needs for a field of signed-up players from one address, and quick hands. */
export const TOURNAMENT_CLUSTER_ENV: Readonly<Record<string, string>> = {
  FELT_TOURNAMENT_POLL_MS: '200',
  FELT_HAND_PAUSE_MS: '100',
  FELT_SEED_WINDOW_MS: '200',
  FELT_SIGNUPS_PER_ADDRESS: '10000',
  FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY: '10000',
};

/** Creates a tournament as an operator would (`npm run tournaments -- --create`). */
export async function createTestTournament(cluster: Cluster, input: TournamentConfigInput): Promise<string> {
  const config = parseTournamentConfig(input);
  return (await createTournament(cluster.db.prisma, newTournament(config, null))).id;
}

/**
 * Signs `n` players up and registers them, then has each follow their seat with a bot (players are
 * spread over the cluster's gateways). The seats start following at once.
 */
export async function tournamentField(
  cluster: Cluster,
  tournamentId: string,
  n: number,
  seed: number,
  options: FieldOptions = {},
): Promise<TournamentPlayer[]> {
  const base = cluster.lobby!.url;
  const gateways = cluster.gateways.map((g) => g.wsUrl);
  const players: TournamentPlayer[] = [];
  for (let i = 0; i < n; i++) {
    const lobby = new LobbyClient({ baseUrl: base });
    const name = `tp${i}-${randomUUID().slice(0, 6)}`;
    const me = await lobby.signup(name, 'tournament-player-pw');
    await lobby.registerTournament(tournamentId);
    const client = new FeltClient({
      gatewayUrls: [...gateways.slice(i % gateways.length), ...gateways.slice(0, i % gateways.length)],
      socketFactory: headerWebSocketFactory(WebSocket, { cookie: lobby.cookie! }),
      pingIntervalMs: 0,
    });
    client.connect();
    const seat = new TournamentSeat(client, lobby, tournamentId, { userId: me.user.id, pollMs: 200, checkMs: 2_000 });
    const player: TournamentPlayer = {
      name,
      userId: me.user.id,
      lobby,
      client,
      seat,
      tables: [],
      games: new Set(),
      result: null,
      bot: null,
      reEntries: 0,
      reEntryErrors: [],
    };
    seat.on('seated', (session: TableSession) => {
      player.tables.push(session.tableId);
      session.on('view', (v) => {
        if (v.state?.hand_id !== undefined) player.games.add(v.state.variant.game);
      });
      player.bot?.stop();
      player.bot = new TableBot(session, {
        random: seededRandom(seed * 31 + i),
        autoSitIn: false,
        ...(options.style !== undefined ? { style: options.style } : {}),
      });
    });
    if (options.reEnter === true) {
      seat.on('out', ({ canReEnter }) => {
        if (!canReEnter) return;
        lobby.registerTournament(tournamentId).then(
          () => player.reEntries++,
          (err: unknown) => player.reEntryErrors.push(err),
        );
      });
    }
    seat.on('finished', (r) => (player.result = r));
    players.push(player);
  }
  for (const p of players) p.seat.start();
  return players;
}

/** The tournament's detail once it is finished, as a player's lobby reads it (or a timeout error). */
export function tournamentFinished(
  players: readonly TournamentPlayer[],
  tournamentId: string,
  timeoutMs: number,
): Promise<LobbyTournamentDetail> {
  return waitFor(
    'the tournament to finish',
    async () => {
      const t = await players[0]!.lobby.getTournament(tournamentId);
      return t.status === 'finished' ? t : undefined;
    },
    timeoutMs,
    500,
  );
}

/**
 * Whether `places` (one per entry, any order) are a standard competition ranking of the field: first
 * place once, and players who tie for a place (busted in the same hand with equal starting stacks,
 * the simultaneous-bust rule) take it together and push the next place down by their number, so eight
 * entries with a tie for seventh are 1..6, 7, 7. Returns what is wrong, or null.
 */
export function rankingProblem(places: readonly (number | null)[]): string | null {
  if (places.some((p) => p === null)) return `an entry has no place: ${JSON.stringify(places)}`;
  const sorted = [...(places as number[])].sort((a, b) => a - b);
  if (sorted.filter((p) => p === 1).length !== 1) return `not one first place: ${sorted.join(',')}`;
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] !== sorted[i - 1] && sorted[i] !== i + 1)
      return `place ${sorted[i]} at rank ${i + 1}: ${sorted.join(',')}`;
  }
  return null;
}

export function leaveField(players: readonly TournamentPlayer[]): void {
  for (const p of players) {
    p.seat.stop();
    p.bot?.stop();
    p.client.close();
  }
}

export interface DirectorCheckpoint {
  readonly state: {
    readonly chipsInPlay: number;
    readonly finished: boolean;
    readonly remaining: number;
    readonly players: Record<string, { chips: number; place: number | null }>;
    readonly tables: { table: number; closed: boolean; lastHandNo: number; waiting?: boolean }[];
    readonly handForHand: { active: boolean };
    readonly onBreak?: boolean;
    /** Add-ons bought while their table was playing a hand: given when it reports it. */
    readonly addOnsQueued?: unknown[];
  };
  readonly tables: Record<string, string>;
  readonly pending: unknown[];
  /** The add-on's sale, once it opened. */
  readonly addOnSale?: unknown;
}

/** The director's checkpoint as Redis holds it (`P checkpoint:tournament:<id>`), or null. */
export async function directorOf(cluster: Cluster, tournamentId: string): Promise<DirectorCheckpoint | null> {
  const raw = await cluster.redis.get(redisKeys(cluster.prefix).tableCheckpoint(`tournament:${tournamentId}`));
  return raw === null ? null : (JSON.parse(raw) as { state: DirectorCheckpoint }).state;
}

export interface ChipWatch {
  /** Stops watching: how many checkpoints were read, and every one whose chips did not add up. */
  stop(): Promise<{ samples: number; bad: string[] }>;
}

/**
 * Reads the director's checkpoint over and over until stopped: the chips it holds for the players
 * must add up to the chips in play every time (a player in the middle of a move included).
 */
export function watchChips(cluster: Cluster, tournamentId: string): ChipWatch {
  let stopped = false;
  const bad: string[] = [];
  let samples = 0;
  const run = (async () => {
    while (!stopped) {
      const d = await directorOf(cluster, tournamentId);
      if (d !== null) {
        samples++;
        const held = Object.values(d.state.players).reduce((n, p) => n + p.chips, 0);
        if (held !== d.state.chipsInPlay) bad.push(`held ${held} of ${d.state.chipsInPlay}`);
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  let result: Promise<{ samples: number; bad: string[] }> | undefined;
  return {
    stop: () => {
      stopped = true;
      result ??= run.then(() => ({ samples, bad }));
      return result;
    },
  };
}
