/**
 * felt-sim: plays seeded random legal hands through the engine for testing, fuzzing and export.
 *
 *   npx felt-sim --game holdem|omaha|omaha5|omaha8|shortdeck|stud|stud8|razz|27td|horse|8game \
 *                --limit nl|pl|fl --players 6 --hands 10000 --seed s1 --out DIR \
 *                --format phh|ohh|jsonl --rake on|off [--reveals FILE] [--hands-per-variant N]
 *
 * Any game plays under any limit (each defaults to its own); the mixed formats rotate through their
 * games, each with its own limit, changing game every `--hands-per-variant` hands. Every hand is checked
 * for conservation, winner membership and per-level pot amounts (docs/engine.md, "felt-sim and the
 * soak"); a violation is reported with the hand's seed and makes the exit status 1.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_HANDS_PER_VARIANT,
  MIXED_FORMATS,
  checkHandProperties,
  gameIds,
  getGameRules,
  isBetLimit,
  isMixedFormat,
  simulateHand,
  toOhh,
  toPhh,
  type BetLimit,
  type GameRules,
  type PlayerCount,
  type RevealRecord,
} from '../index.js';

const FORMATS = ['phh', 'ohh', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];

const GAMES = () => [...gameIds(), ...Object.keys(MIXED_FORMATS)];

const USAGE = `usage: felt-sim --game ${GAMES().join('|')}
                [--limit nl|pl|fl] --players N|MIN..MAX --hands N --seed S
                [--out DIR --format phh|ohh|jsonl] [--rake on|off] [--reveals FILE] [--hands-per-variant N]`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'usage';
}

/** One game the simulator plays; a mixed format is several, in rotation order. */
export interface SimGame {
  readonly rules: GameRules;
  readonly limit: BetLimit;
}

export interface SimArgs {
  /** The game id or mixed format asked for. */
  readonly game: string;
  readonly games: readonly SimGame[];
  readonly handsPerVariant: number;
  readonly players: PlayerCount;
  readonly hands: number;
  readonly seed: string;
  readonly out: string | null;
  readonly format: Format;
  readonly rake: boolean;
  readonly reveals: string | null;
}

function parsePlayers(text: string, max: number): PlayerCount {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  const one = /^(\d+)$/.exec(text);
  const [min, hi] =
    range !== null
      ? [Number(range[1]), Number(range[2])]
      : one !== null
        ? [Number(one[1]), Number(one[1])]
        : [NaN, NaN];
  if (!(min >= 2 && hi <= max && min <= hi)) throw new UsageError(`--players must be within 2..${max}`);
  return min === hi ? min : { min, max: hi };
}

export function parseSimArgs(argv: readonly string[]): SimArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        game: { type: 'string', default: 'holdem' },
        limit: { type: 'string' },
        players: { type: 'string', default: '6' },
        hands: { type: 'string', default: '100' },
        seed: { type: 'string', default: 'felt' },
        out: { type: 'string' },
        format: { type: 'string', default: 'jsonl' },
        rake: { type: 'string', default: 'off' },
        reveals: { type: 'string' },
        'hands-per-variant': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (values.help) throw new UsageError('');
  if (!GAMES().includes(values.game)) throw new UsageError(`--game must be one of ${GAMES().join(', ')}`);
  let games: SimGame[];
  if (isMixedFormat(values.game)) {
    if (values.limit !== undefined) {
      throw new UsageError(`${values.game} is a rotation: each of its games has its own limit; drop --limit`);
    }
    games = MIXED_FORMATS[values.game].map((e) => ({ rules: getGameRules(e.game), limit: e.limit }));
  } else {
    const rules = getGameRules(values.game);
    const limit = values.limit ?? rules.defaultLimit;
    if (!isBetLimit(limit)) throw new UsageError('--limit must be nl, pl or fl');
    games = [{ rules, limit }];
  }
  const handsPerVariant = Number(values['hands-per-variant'] ?? DEFAULT_HANDS_PER_VARIANT);
  if (!Number.isSafeInteger(handsPerVariant) || handsPerVariant < 1) {
    throw new UsageError('--hands-per-variant must be a positive integer');
  }
  const hands = Number(values.hands);
  if (!Number.isSafeInteger(hands) || hands < 1) throw new UsageError('--hands must be a positive integer');
  if (!(FORMATS as readonly string[]).includes(values.format))
    throw new UsageError('--format must be phh, ohh or jsonl');
  const format = values.format as Format;
  for (const { rules, limit } of games) {
    if (format === 'phh' && rules.phhVariant[limit] === undefined) {
      throw new UsageError(
        `PHH has no variant code for ${rules.name} ${limit.toUpperCase()}; use --format ohh or jsonl`,
      );
    }
  }
  if (values.rake !== 'on' && values.rake !== 'off') throw new UsageError('--rake must be on or off');
  return {
    game: values.game,
    games,
    handsPerVariant,
    players: parsePlayers(values.players, Math.min(...games.map((g) => g.rules.maxSeats))),
    hands,
    seed: values.seed,
    out: values.out ?? null,
    format,
    rake: values.rake === 'on',
    reveals: values.reveals ?? null,
  };
}

export interface SimSummary {
  readonly line: string;
  readonly violations: number;
}

const BASE_TIME = Date.UTC(2026, 0, 1);

export function runSim(args: SimArgs): SimSummary {
  const started = performance.now();
  if (args.out !== null) mkdirSync(args.out, { recursive: true });
  const reveals: RevealRecord[] = [];
  let showdowns = 0;
  let allIns = 0;
  let sidePots = 0;
  let multiway = 0;
  let rake = 0;
  let violations = 0;
  const width = String(args.hands).length;
  for (let i = 0; i < args.hands; i++) {
    const seed = `${args.seed}/${i}`;
    // A mixed format changes game only between hands, every handsPerVariant hands.
    const game = args.games[Math.floor(i / args.handsPerVariant) % args.games.length]!;
    const sim = simulateHand({
      rules: game.rules,
      limit: game.limit,
      players: args.players,
      rake: args.rake,
      seed,
      // Reproducible timestamps: the simulator never reads the clock.
      startedAt: new Date(BASE_TIME + i * 60_000).toISOString().replace('.000Z', 'Z'),
    });
    const { hand } = sim;
    for (const v of checkHandProperties(hand)) {
      violations++;
      process.stderr.write(`felt-sim: seed ${seed}: ${v.property}: ${v.message}\n`);
    }
    const s = hand.settlement!;
    if (s.showdown) showdowns++;
    if (s.pots.length > 1) sidePots++;
    if (s.pots.some((p) => p.eligible.length > 2)) multiway++;
    if (hand.operations.some((op) => (op.type === 'call' || op.type === 'bet' || op.type === 'raise') && op.allIn))
      allIns++;
    rake += s.rake.amount;
    if (args.reveals !== null) reveals.push(sim.reveal());
    if (args.out !== null) {
      const name = `${String(i + 1).padStart(width, '0')}-${hand.handId}`;
      let body: string;
      switch (args.format) {
        case 'phh':
          body = toPhh(hand);
          break;
        case 'ohh':
          body = `${JSON.stringify(toOhh(hand), null, 2)}\n`;
          break;
        case 'jsonl':
          body = `${JSON.stringify({ seed, hand: hand.toJSON(), settlement: s })}\n`;
          break;
      }
      writeFileSync(join(args.out, `${name}.${args.format}`), body);
    }
  }
  if (args.reveals !== null) writeFileSync(args.reveals, `${JSON.stringify(reveals, null, 1)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const players = typeof args.players === 'number' ? `${args.players}` : `${args.players.min}..${args.players.max}`;
  const wrote = args.out === null ? 'no files' : `${args.hands} ${args.format} files in ${args.out}`;
  const limit = args.games.length === 1 ? args.games[0]!.limit : 'mixed';
  const line =
    `felt-sim: ${args.hands} hands ${args.game} ${limit} players=${players} seed=${args.seed} ` +
    `rake=${args.rake ? 'on' : 'off'} in ${seconds}s: showdowns=${showdowns} all-in=${allIns} side-pots=${sidePots} ` +
    `multiway=${multiway} rake-total=${rake} violations=${violations}; wrote ${wrote}` +
    (args.reveals === null ? '' : `, reveals in ${args.reveals}`);
  return { line, violations };
}

export function main(argv: readonly string[]): number {
  let args: SimArgs;
  try {
    args = parseSimArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      if (!e.message) {
        process.stdout.write(`${USAGE}\n`);
        return 0;
      }
      process.stderr.write(`felt-sim: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  const summary = runSim(args);
  process.stdout.write(`${summary.line}\n`);
  return summary.violations > 0 ? 1 : 0;
}
