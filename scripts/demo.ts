// `npm run demo`: an operator smoke test. Brings up a local cluster (or attaches to one with --lobby),
// signs up bot users through the lobby, creates rooms and plays hands through @felt/client over real
// WebSockets, watching every message every bot (spectators included) receives. Ends with one line:
// DEMO tables=… hands=… actions=… errors=… hash_mismatches=… privacy_violations=… resyncs=… p50_action_ms=… p99_action_ms=…
// and exits 1 when errors, mismatches or privacy violations are not all zero. With --tournament it plays
// one tournament to its winner instead and prints the TOURNAMENT line (scripts/demo-tournament.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GAME_TYPES, type GameType } from '@felt/protocol';
import { Cluster } from '../test/harness/cluster.js';
import { TableCrew, seededRandom } from '../test/sdk/crew.js';
import { TOURNAMENT_CLUSTER_ENV } from '../test/harness/tournament.js';
import { TRAFFIC_FORMAT, writeFixture } from '../test/sdk/traffic.js';
import { runTournamentDemo, tournamentLine, type TournamentKind } from './demo-tournament.js';

const USAGE = `usage: npm run demo -- [options]

  --tables N         tables to play (default 2)
  --players K        bot players per table (default 3)
  --hands H          hands per table (default 5)
  --spectators S     spectator bots per table (default 1)
  --games LIST       games, comma-separated, assigned to tables in turn (default holdem)
  --churn            joins, leaves, rebuys and dropped connections during play
  --lobby URL        attach to a running cluster instead of starting one
  --gateways N       gateways of the local cluster (default 2)
  --workers N        workers of the local cluster (default 2)
  --hand-pause-ms N  local cluster: pause between hands (default 1000)
  --seed N           seed of the bots' decisions (default: random)
  --timeout S        give up after S seconds (default 300)
  --dump DIR         write every message each bot received to DIR/<table>.json (for post-mortems)
  --quiet            no progress lines
  --tournament KIND  play one tournament instead: sng (one table of --players, 2-10) or mtt (--players
                     2-1000 on tables of 9, default 60, on --workers default 3); prints the TOURNAMENT line`;

interface DemoArgs {
  tables: number;
  players: number;
  hands: number;
  spectators: number;
  games: GameType[];
  churn: boolean;
  lobby: string | undefined;
  gateways: number;
  workers: number;
  handPauseMs: number;
  seed: number;
  timeoutMs: number;
  dump: string | undefined;
  quiet: boolean;
  tournament: TournamentKind | undefined;
}

class UsageError extends Error {}

function positive(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return n;
}

function parse(argv: string[]): DemoArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      tables: { type: 'string' },
      players: { type: 'string' },
      hands: { type: 'string' },
      spectators: { type: 'string' },
      games: { type: 'string' },
      churn: { type: 'boolean' },
      lobby: { type: 'string' },
      gateways: { type: 'string' },
      workers: { type: 'string' },
      'hand-pause-ms': { type: 'string' },
      seed: { type: 'string' },
      timeout: { type: 'string' },
      dump: { type: 'string' },
      quiet: { type: 'boolean' },
      tournament: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    process.exit(0);
  }
  const games = (values.games ?? 'holdem').split(',').map((g) => g.trim());
  for (const g of games) {
    if (!(GAME_TYPES as readonly string[]).includes(g))
      throw new UsageError(`unknown game ${g} (${GAME_TYPES.join(', ')})`);
  }
  const tournament = values.tournament;
  if (tournament !== undefined && tournament !== 'sng' && tournament !== 'mtt') {
    throw new UsageError('--tournament is sng or mtt');
  }
  if (tournament !== undefined && values.lobby !== undefined) {
    throw new UsageError('--tournament runs on a local cluster (it creates the tournament in its database)');
  }
  const players = positive('players', values.players, tournament === 'mtt' ? 60 : tournament === 'sng' ? 6 : 3, 2);
  if (players > (tournament === 'mtt' ? 1_000 : 10)) {
    throw new UsageError(`--players is at most ${tournament === 'mtt' ? 1_000 : 10}`);
  }
  return {
    tables: positive('tables', values.tables, 2),
    players,
    hands: positive('hands', values.hands, 5),
    spectators: positive('spectators', values.spectators, 1, 0),
    games: games as GameType[],
    churn: values.churn ?? false,
    lobby: values.lobby,
    gateways: positive('gateways', values.gateways, 2),
    workers: positive('workers', values.workers, tournament === 'mtt' ? 3 : 2),
    handPauseMs: positive('hand-pause-ms', values['hand-pause-ms'], tournament !== undefined ? 200 : 1000),
    seed: positive('seed', values.seed, randomBytes(4).readUInt32BE(0) >>> 1, 0),
    timeoutMs: positive('timeout', values.timeout, 300) * 1000,
    dump: values.dump,
    quiet: values.quiet ?? false,
    tournament,
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Tally {
  tables: number;
  hands: number;
  actions: number;
  errors: number;
  hashMismatches: number;
  privacyViolations: number;
  resyncs: number;
  latencies: number[];
  details: string[];
}

function tally(crews: readonly TableCrew[], churnErrors: readonly string[], timeouts: readonly string[]): Tally {
  const t: Tally = {
    tables: crews.length,
    hands: 0,
    actions: 0,
    errors: churnErrors.length + timeouts.length,
    hashMismatches: 0,
    privacyViolations: 0,
    resyncs: 0,
    latencies: [],
    details: [...churnErrors, ...timeouts],
  };
  for (const crew of crews) {
    t.hands += crew.handsCompleted.size;
    for (const m of crew.members) {
      const s = m.client.stats;
      t.hashMismatches += s.hashMismatches;
      t.resyncs += s.resyncs;
      t.privacyViolations += m.auditor.violations.length;
      for (const v of m.auditor.violations)
        t.details.push(`${m.name}: privacy ${v.kind} in ${v.messageType} at ${v.path}`);
      const problems = [
        ...m.problems,
        ...(s.commandTimeouts > 0 ? [`${s.commandTimeouts} command timeouts`] : []),
        ...(s.garbageFrames > 0 ? [`${s.garbageFrames} frames that were not JSON`] : []),
        ...(s.anomalies > 0 ? [`${s.anomalies} impossible states (private data in a spectator view)`] : []),
        ...m.fairness.filter((f) => !f.ok).map((f) => `hand ${f.handId} failed verification: ${f.problems.join(',')}`),
      ];
      for (const a of m.bot?.actions ?? []) {
        if (a.outcome === 'acked') {
          t.actions++;
          t.latencies.push(a.ms);
        } else if (m.active) {
          // A bot only ever picks from valid_actions, so a refusal of a seated bot is a fault.
          problems.push(`${a.action} ${a.outcome}${a.code ? ` (${a.code})` : ''}`);
        }
      }
      t.errors += problems.length;
      for (const p of problems) t.details.push(`${m.name}: ${p}`);
    }
  }
  t.latencies.sort((a, b) => a - b);
  return t;
}

function summaryLine(t: Tally): string {
  return (
    `DEMO tables=${t.tables} hands=${t.hands} actions=${t.actions} errors=${t.errors} ` +
    `hash_mismatches=${t.hashMismatches} privacy_violations=${t.privacyViolations} resyncs=${t.resyncs} ` +
    `p50_action_ms=${percentile(t.latencies, 50)} p99_action_ms=${percentile(t.latencies, 99)}`
  );
}

/** Joins, leaves with rejoins (rebuy), top-ups and dropped sockets while the table plays. */
async function churnStep(
  crew: TableCrew,
  random: () => number,
  args: DemoArgs,
  say: (l: string) => void,
): Promise<void> {
  const players = crew.players;
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(random() * xs.length)];
  const roll = random();
  if (roll < 0.25 && players.length > 2) {
    // Leave, then come back with a new buy-in: the rebuy path that needs no top-up route.
    const m = pick(players.slice(1));
    if (!m) return;
    await crew.removePlayer(m);
    say(`churn: ${m.name} left table ${crew.tableId.slice(0, 8)}`);
    await new Promise((r) => setTimeout(r, 300 + Math.floor(random() * 700)));
    await crew.rejoin(m);
    say(`churn: ${m.name} rejoined with a new buy-in`);
  } else if (roll < 0.45 && players.length < (crew.options.seats ?? args.players)) {
    const m = await crew.addPlayer();
    say(`churn: ${m.name} joined table ${crew.tableId.slice(0, 8)}`);
  } else if (roll < 0.7) {
    const m = pick(players);
    const seat = m?.session.state?.seats.find((s) => s.seat === m.session.heroSeat);
    if (!m || !seat || seat.stack >= crew.buyIn.max) return;
    const amount = Math.max(1, Math.min(crew.buyIn.max - seat.stack, crew.buyIn.min));
    if (await crew.topUp(m, amount)) say(`churn: ${m.name} topped up ${amount}`);
  } else {
    const m = pick(crew.members.filter((x) => x.active));
    if (!m) return;
    m.client.connection.drop('demo churn');
    say(`churn: dropped ${m.name}'s connection`);
  }
}

async function main(): Promise<number> {
  let args: DemoArgs;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const say = (line: string): void => {
    if (!args.quiet) process.stderr.write(`[demo] ${line}\n`);
  };
  if (args.tournament !== undefined) return tournamentMain(args, args.tournament, say);
  const started = Date.now();
  let cluster: Cluster | undefined;
  const crews: TableCrew[] = [];
  const churnErrors: string[] = [];
  const timeouts: string[] = [];
  let stopping = false;
  const onSignal = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    say('interrupted: cleaning up (Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    let lobbyUrl = args.lobby;
    if (lobbyUrl === undefined) {
      say(`starting a local cluster: ${args.gateways} gateways, ${args.workers} workers, lobby, persister`);
      cluster = await Cluster.start({
        gateways: args.gateways,
        workers: args.workers,
        lobby: true,
        persister: true,
        env: { FELT_HAND_PAUSE_MS: String(args.handPauseMs) },
      });
      lobbyUrl = cluster.lobby!.url;
      say(`cluster up: lobby ${lobbyUrl}, gateways ${cluster.gateways.map((g) => g.wsUrl).join(' ')}`);
    }
    const run = randomBytes(3).toString('hex');
    say(
      `seed ${args.seed}: ${args.tables} tables × ${args.players} players + ${args.spectators} spectators, ` +
        `${args.hands} hands each${args.churn ? ', with churn' : ''}`,
    );
    const created = await Promise.all(
      Array.from({ length: args.tables }, (_, i) =>
        TableCrew.create({
          lobbyUrl: lobbyUrl,
          game: args.games[i % args.games.length]!,
          players: args.players,
          spectators: args.spectators,
          seats: Math.min(10, args.players + (args.churn ? 1 : 0)),
          namePrefix: `d${run}t${i}`,
          seed: args.seed + i,
          record: args.dump !== undefined,
        }),
      ),
    );
    crews.push(...created);
    for (const c of crews) say(`table ${c.tableId} (code ${c.code}): ${c.members.map((m) => m.name).join(', ')}`);

    const progress = setInterval(() => {
      const t = tally(crews, churnErrors, timeouts);
      say(
        `${Math.round((Date.now() - started) / 1000)}s hands ${t.hands}/${args.tables * args.hands} actions ${t.actions} ` +
          `errors ${t.errors} mismatches ${t.hashMismatches} violations ${t.privacyViolations} resyncs ${t.resyncs}`,
      );
    }, 2_000);

    const churners = args.churn
      ? crews.map((crew, i) => {
          const random = seededRandom(args.seed * 31 + i);
          let active = true;
          const loop = (async () => {
            while (active && !stopping) {
              await new Promise((r) => setTimeout(r, 800 + Math.floor(random() * 1200)));
              if (!active || stopping) break;
              try {
                await churnStep(crew, random, args, say);
              } catch (err) {
                churnErrors.push(`churn on ${crew.tableId}: ${(err as Error).message}`);
              }
            }
          })();
          return {
            stop: async () => {
              active = false;
              await loop;
            },
          };
        })
      : [];

    // The clock starts once the tables exist: a cold local cluster takes a while to come up.
    const deadline = Date.now() + args.timeoutMs;
    await Promise.all(
      crews.map((crew) =>
        crew.waitHands(args.hands, Math.max(1_000, deadline - Date.now())).catch((err: Error) => {
          timeouts.push(err.message);
        }),
      ),
    );
    for (const c of churners) await c.stop();
    // Let the last hand's seed_reveal and snapshot reach everyone before the bots stand up.
    for (const crew of crews) crew.pauseBots();
    await new Promise((r) => setTimeout(r, 1_000));
    clearInterval(progress);
  } catch (err) {
    churnErrors.push(`demo failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    for (const crew of crews) await crew.stop().catch((err: Error) => churnErrors.push(`stop: ${err.message}`));
  }
  if (args.dump !== undefined) {
    mkdirSync(args.dump, { recursive: true });
    for (const crew of crews) {
      writeFixture(join(args.dump, `${crew.tableId}.json`), {
        format: TRAFFIC_FORMAT,
        description: `npm run demo --dump, seed ${args.seed}`,
        game: crew.options.game,
        limit: crew.options.limit ?? null,
        hands: crew.handsCompleted.size,
        recipients: crew.members.map((m) => ({
          name: m.name,
          role: m.role,
          seat: m.seat,
          messages: m.recorded as Record<string, unknown>[],
        })),
      });
    }
    say(`traffic written to ${args.dump}`);
  }
  for (const crew of crews) crew.settlePrivacy();
  const t = tally(crews, churnErrors, timeouts);
  for (const d of t.details.slice(0, 50)) process.stderr.write(`[demo] problem: ${d}\n`);
  if (cluster) {
    say('stopping the local cluster');
    await cluster.stop().catch(() => undefined);
  }
  process.stdout.write(summaryLine(t) + '\n');
  return t.errors > 0 || t.hashMismatches > 0 || t.privacyViolations > 0 ? 1 : 0;
}

/** `--tournament`: one tournament on a local cluster, from registration to its winner. */
async function tournamentMain(args: DemoArgs, kind: TournamentKind, say: (line: string) => void): Promise<number> {
  say(`starting a local cluster: ${args.gateways} gateways, ${args.workers} workers, lobby, persister`);
  const cluster = await Cluster.start({
    gateways: args.gateways,
    workers: args.workers,
    lobby: true,
    persister: true,
    env: { ...TOURNAMENT_CLUSTER_ENV, FELT_HAND_PAUSE_MS: String(args.handPauseMs) },
  });
  try {
    const tally = await runTournamentDemo(
      cluster,
      { kind, players: args.players, seed: args.seed, timeoutMs: args.timeoutMs * 2 },
      say,
    );
    for (const d of tally.details.slice(0, 50)) process.stderr.write(`[demo] problem: ${d}\n`);
    process.stdout.write(tournamentLine(tally) + '\n');
    return tally.errors > 0 || !tally.finished ? 1 : 0;
  } finally {
    say('stopping the local cluster');
    await cluster.stop().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[demo] ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
