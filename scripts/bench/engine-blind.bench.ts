// What engine-blind dealing adds to a hand's setup (docs/fairness.md, "Engine-blind dealing"): the key
// exchange, the shuffles in turn with their proofs, and the hole cards' shares, run through @felt/blind's
// protocol in this process for 2, 6 and 9 players, against a standard hand's setup (server seed and
// commitment, every player's client seed, the felt-deck-v1 derivation and shuffle) in the same run.
//
// Each role's work is timed on its own and put together along the critical path, as the table runs it:
// every player makes its key at once (the slowest counts) and the server checks them; the shuffles go
// one after another, each proven by its player and checked by the server; the hole shares are made at
// once and checked by the server; each owner reads its cards. Each player's check of the others'
// shuffles overlaps the next shuffles and is printed on its own. No network: the bytes on the wire are
// counted from the JSON of every message sent to the table and every step relayed to the players.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  BlindParticipant,
  blindView,
  decryptionShare,
  generateKey,
  initialDeck as blindDeck,
  jointKey,
  shuffleDeck,
  verifyShare,
  verifyShuffle,
  requestCards,
  startBlindHand,
  submitKey,
  submitShares,
  submitShuffle,
  type BlindHandSetup,
  type BlindHandState,
  type BlindMessage,
  type BlindResult,
} from '@felt/blind';
import { initialDeck, prepareDeck, seedCommit } from '@felt/engine';
import type { BenchReporter } from './bench-api.js';

const LAMBDA = Number(process.env.FELT_BENCH_BLIND_LAMBDA ?? 40);
const SIZES = (process.env.FELT_BENCH_BLIND_PLAYERS ?? '2,6,9').split(',').map(Number);
const CARDS = initialDeck('standard52');

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A standard hand's setup compute, ms, median of many: the anchor. */
function standardSetupMs(players: number): number {
  const runs = 200;
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    const serverSeed = randomBytes(32);
    seedCommit(serverSeed);
    const clientSeeds = Array.from({ length: players }, (_, seat) => ({ seat, seed: randomBytes(32) }));
    prepareDeck({ handId: randomUUID(), serverSeed, clientSeeds, kind: 'standard52' });
    times.push(ms(start));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)] as number;
}

interface BlindCost {
  readonly criticalMs: number;
  readonly keysMs: number;
  readonly shufflesMs: number;
  readonly sharesMs: number;
  readonly serverMs: number;
  readonly auditMs: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
}

function blindSetup(players: number, handId: string): BlindCost {
  const seats = Array.from({ length: players }, (_, i) => i);
  const setup: BlindHandSetup = {
    tableId: 'bench',
    handId,
    seats,
    cards: CARDS,
    lambda: LAMBDA,
    deadlines: { keyMs: 60_000, shuffleMs: 60_000, shareMs: 60_000 },
  };
  const now = 0;
  let state: BlindHandState = startBlindHand(setup, now);
  const players_ = seats.map((s) => new BlindParticipant(setup, s));
  // One auditing player, to time a player's check of every step (the others do the same, in parallel).
  const auditor = new BlindParticipant(setup, seats[0] as number);
  let serverMs = 0;
  let auditMs = 0;
  let bytesIn = 0;
  let bytesOut = 0;

  const server = (seat: number, m: BlindMessage): void => {
    bytesIn += JSON.stringify(m).length;
    const start = process.hrtime.bigint();
    let result: BlindResult;
    if (m.kind === 'key') result = submitKey(state, seat, m.proof, now);
    else if (m.kind === 'shuffle') result = submitShuffle(state, seat, m.output, m.proof, now);
    else result = submitShares(state, seat, m.shares);
    serverMs += ms(start);
    state = result.state;
    if (state.phase === 'failed') throw new Error(`the bench hand failed: ${JSON.stringify(state.failure)}`);
    if (result.step !== undefined) {
      // Keys and shuffles go to everyone; a hole card's shares only to its owner.
      const audience = result.step.kind === 'shares' ? 1 : players;
      bytesOut += JSON.stringify(result.step).length * audience;
      const a = process.hrtime.bigint();
      auditor.observe(result.step);
      auditMs += ms(a);
    }
  };
  const answer = (seat: number): { ms: number; messages: BlindMessage[] } => {
    const start = process.hrtime.bigint();
    const messages = (players_[seat] as BlindParticipant).next(blindView(state, seat));
    return { ms: ms(start), messages };
  };

  /** Every seat answers at once (the slowest counts), then the server takes each answer. */
  const atOnce = (): number => {
    let slowest = 0;
    const before = serverMs;
    for (const seat of seats) {
      const { ms: took, messages } = answer(seat);
      slowest = Math.max(slowest, took);
      for (const m of messages) server(seat, m);
    }
    return slowest + (serverMs - before);
  };

  // Keys: made at once; the server checks each.
  const keysMs = atOnce();

  // Shuffles: one after another, each proven then checked.
  let shufflesMs = 0;
  for (const seat of seats) {
    const before = serverMs;
    const { ms: took, messages } = answer(seat);
    for (const m of messages) server(seat, m);
    shufflesMs += took + (serverMs - before);
  }

  // Hole cards: two per player, positions as the engine deals them; the shares are made at once.
  const dealt = requestCards(
    state,
    seats.flatMap((seat, i) => [
      { position: i, to: seat },
      { position: players + i, to: seat },
    ]),
    now,
  );
  state = dealt.state;
  let sharesMs = atOnce();
  let readMs = 0;
  for (const seat of seats) {
    const start = process.hrtime.bigint();
    const cards = (players_[seat] as BlindParticipant).holeCards(blindView(state, seat));
    readMs = Math.max(readMs, ms(start));
    if (cards.size !== 2) throw new Error(`seat ${seat} reads ${cards.size} hole cards`);
  }
  sharesMs += readMs;
  return {
    criticalMs: keysMs + shufflesMs + sharesMs,
    keysMs,
    shufflesMs,
    sharesMs,
    serverMs,
    auditMs,
    bytesIn,
    bytesOut,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** One shuffle's proving and checking, one share's making and checking, and a shuffle's bytes: medians. */
function operations(runs: number): Record<string, string | number> {
  const keys = Array.from({ length: 9 }, () => generateKey());
  const Y = jointKey(keys.map((k) => k.Y));
  let deck = blindDeck(CARDS);
  const prove: number[] = [];
  const check: number[] = [];
  const bytes: number[] = [];
  for (let r = 0; r < runs; r++) {
    const context = `bench|shuffle|${r}`;
    let start = process.hrtime.bigint();
    const { output, proof } = shuffleDeck(deck, Y, context, { lambda: LAMBDA });
    prove.push(ms(start));
    start = process.hrtime.bigint();
    if (!verifyShuffle(deck, output, Y, proof, context, { lambda: LAMBDA })) throw new Error('a shuffle failed');
    check.push(ms(start));
    bytes.push(JSON.stringify({ output, proof }).length);
    deck = output;
  }
  const make: number[] = [];
  const checkShare: number[] = [];
  for (let position = 0; position < 20; position++) {
    const key = keys[position % keys.length]!;
    const context = `bench|share|${position}`;
    let start = process.hrtime.bigint();
    const share = decryptionShare(key, deck[position]!, context);
    make.push(ms(start));
    start = process.hrtime.bigint();
    if (!verifyShare(key.Y, deck[position]!, share, context)) throw new Error('a share failed');
    checkShare.push(ms(start));
  }
  return {
    shuffle_prove_ms: median(prove).toFixed(0),
    shuffle_check_ms: median(check).toFixed(0),
    shuffle_bytes: median(bytes),
    share_make_ms: median(make).toFixed(2),
    share_check_ms: median(checkShare).toFixed(2),
  };
}

export function run(report: BenchReporter): void {
  report.info(`engine-blind: lambda=${LAMBDA}, in process, one core, no network`);
  blindSetup(2, randomUUID()); // the card points and key tables are cached after the first hand
  report.figure('engine-blind-ops', { lambda: LAMBDA, ...operations(3) });
  for (const players of SIZES) {
    const anchor = standardSetupMs(players);
    const cost = blindSetup(players, randomUUID());
    report.figure(`engine-blind-setup-${players}`, {
      ratio: (cost.criticalMs / anchor).toFixed(0),
      blind_ms: cost.criticalMs.toFixed(0),
      standard_ms: anchor.toFixed(3),
      keys_ms: cost.keysMs.toFixed(1),
      shuffles_ms: cost.shufflesMs.toFixed(0),
      shares_ms: cost.sharesMs.toFixed(1),
      server_cpu_ms: cost.serverMs.toFixed(0),
      player_audit_ms: cost.auditMs.toFixed(0),
      bytes_to_table: cost.bytesIn,
      bytes_to_players: cost.bytesOut,
    });
  }
}
