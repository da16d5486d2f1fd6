// `npm run demo -- --tournament sng|mtt`: a tournament played by SDK bots through a cluster, from
// registration to the winner, checked as it goes. Ends with one line:
// TOURNAMENT players=… tables_peak=… moves=… breaks=… levels=… finished=1 prize_pool=… paid=… chips_delta=0 errors=0
import { runAudit } from '@felt/db';
import type { TournamentConfigInput } from '@felt/protocol';
import type { Cluster } from '../test/harness/cluster.js';
import {
  createTestTournament,
  directorOf,
  leaveField,
  tournamentFinished,
  tournamentField,
  watchChips,
  type TournamentPlayer,
} from '../test/harness/tournament.js';

export type TournamentKind = 'sng' | 'mtt';

export interface TournamentDemoArgs {
  readonly kind: TournamentKind;
  readonly players: number;
  readonly seed: number;
  readonly timeoutMs: number;
}

export interface TournamentTally {
  players: number;
  tablesPeak: number;
  moves: number;
  breaks: number;
  levels: number;
  finished: boolean;
  prizePool: number;
  paid: number;
  chipsDelta: number;
  errors: number;
  readonly details: string[];
}

const BUY_IN = 100;
const STACK = 1_500;

/** The demo's tournament: blinds that rise every few hands, so a field of 60 finishes in minutes. */
export function demoTournamentConfig(kind: TournamentKind, players: number): TournamentConfigInput {
  const structure = {
    levels: [25, 50, 100, 150, 200, 300, 400, 600, 800, 1_000].map((bigBlind) => ({ bigBlind })),
    levelLength: { unit: 'hands' as const, value: 3 },
  };
  if (kind === 'sng') {
    return {
      name: `Demo sit-and-go ${players}`,
      format: 'sit_and_go',
      seats: players,
      buyIn: BUY_IN,
      fee: 10,
      startingStack: STACK,
      structure,
    };
  }
  return {
    name: `Demo ${players}`,
    format: 'scheduled',
    // Registration stays open until everyone is in; the start is then brought forward to now.
    startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    seats: 9,
    entrants: { min: 2, max: players },
    buyIn: BUY_IN,
    fee: 10,
    startingStack: STACK,
    structure,
  };
}

/** Plays one tournament to its winner on `cluster` and tallies it (never throws for a failed check). */
export async function runTournamentDemo(
  cluster: Cluster,
  args: TournamentDemoArgs,
  say: (line: string) => void,
): Promise<TournamentTally> {
  const tally: TournamentTally = {
    players: args.players,
    tablesPeak: 0,
    moves: 0,
    breaks: 0,
    levels: 0,
    finished: false,
    prizePool: args.players * BUY_IN,
    paid: 0,
    chipsDelta: 0,
    errors: 0,
    details: [],
  };
  const problem = (line: string): void => {
    tally.errors++;
    tally.details.push(line);
  };
  const id = await createTestTournament(cluster, demoTournamentConfig(args.kind, args.players));
  say(`tournament ${id}: ${args.players} players registering`);
  const players = await tournamentField(cluster, id, args.players, args.seed);
  for (const p of players) {
    p.seat.on('seated', (session) =>
      session.on('tournament', (t) => (tally.levels = Math.max(tally.levels, t.level.number))),
    );
  }
  if (args.kind === 'mtt') await cluster.db.prisma.tournament.update({ where: { id }, data: { startsAt: new Date() } });
  const chips = watchChips(cluster, id);
  const started = Date.now();
  const progress = setInterval(() => {
    void directorOf(cluster, id).then((d) => {
      if (d === null) return;
      const open = d.state.tables.filter((t) => !t.closed).length;
      say(
        `${Math.round((Date.now() - started) / 1000)}s players left ${d.state.remaining}/${args.players}, ` +
          `tables ${open}${d.state.handForHand.active ? ', hand-for-hand' : ''}`,
      );
    });
  }, 5_000);
  try {
    await tournamentFinished(players, id, args.timeoutMs).catch(() =>
      problem(`the tournament did not finish within ${args.timeoutMs / 1000} s`),
    );
  } finally {
    clearInterval(progress);
  }
  const watched = await chips.stop();
  for (const b of watched.bad) problem(`chips in play changed: ${b}`);
  await check(cluster, id, players, tally, problem);
  leaveField(players);
  return tally;
}

async function check(
  cluster: Cluster,
  id: string,
  players: readonly TournamentPlayer[],
  tally: TournamentTally,
  problem: (line: string) => void,
): Promise<void> {
  const detail = await players[0]!.lobby.getTournament(id);
  tally.finished = detail.status === 'finished';
  tally.paid = detail.players.reduce((n, p) => n + p.prize, 0);
  const tables = await cluster.db.prisma.tournamentTable.findMany({ where: { tournamentId: id } });
  tally.tablesPeak = tables.length;
  const lastClosed = Math.max(...tables.map((t) => t.closedAt?.getTime() ?? 0));
  tally.breaks = tables.filter((t) => t.closedAt !== null && t.closedAt.getTime() < lastClosed).length;
  tally.moves = players.reduce((n, p) => n + Math.max(0, p.tables.length - 1), 0);
  const director = await directorOf(cluster, id);
  if (director !== null) {
    const held = Object.values(director.state.players).reduce((n, p) => n + p.chips, 0);
    tally.chipsDelta = held - players.length * STACK;
  }
  if (!tally.finished) return;
  if (tally.paid !== tally.prizePool) problem(`paid ${tally.paid} of a ${tally.prizePool} pool`);
  if (detail.players.filter((p) => p.place === 1).length !== 1) problem('not exactly one winner');
  if (detail.players.some((p) => p.place === null)) problem('a player has no place');
  for (const p of players) {
    const row = detail.players.find((x) => x.user_id === p.userId);
    if (row && p.result !== null && p.result.place !== row.place) {
      problem(`${p.name} was told place ${p.result.place}, the lobby says ${row.place}`);
    }
  }
  if (tally.chipsDelta !== 0) problem(`chips in play moved by ${tally.chipsDelta}`);
  const report = await runAudit(cluster.db.prisma);
  for (const issue of report.issues) problem(`audit: ${issue.code}: ${issue.message}`);
}

export function tournamentLine(t: TournamentTally): string {
  return (
    `TOURNAMENT players=${t.players} tables_peak=${t.tablesPeak} moves=${t.moves} breaks=${t.breaks} ` +
    `levels=${t.levels} finished=${t.finished ? 1 : 0} prize_pool=${t.prizePool} paid=${t.paid} ` +
    `chips_delta=${t.chipsDelta} errors=${t.errors}`
  );
}
