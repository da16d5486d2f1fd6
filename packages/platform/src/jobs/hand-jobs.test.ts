import {
  SeededRng,
  Table,
  prepareDeck,
  randomBytes,
  randomUnit,
  randomUuid,
  toRevealRecord,
  type Card,
  type Hand,
} from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { completedHandJobSchema, HAND_RECORD_FORMAT, type CompletedHandJob } from './hand-jobs.js';

/*
 * The completed-hand job the table worker enqueues, for both dealings: a standard hand carries its
 * deck and the reveal of its seeds; an engine-blind hand (docs/fairness.md) neither. The hands are
 * real engine hands, the blind one dealt as the worker deals it (the board and the showdown's shows
 * fed from a deck only the players know, in deal order).
 */

const ROOM = '00000000-0000-4000-8000-0000000000aa';

/** Three seats with uuid player ids and a hand played with checks and calls to the end. */
function play(blind: boolean, seed: string): { hand: Hand; reveal?: unknown } {
  const rng = new SeededRng(seed);
  const table = new Table({ game: 'holdem', limit: 'nl', stakes: { smallBlind: 1, bigBlind: 2 }, maxSeats: 6 });
  for (const seat of [1, 2, 3]) table.sit(seat, randomUuid(rng), 100);
  const handId = randomUuid(rng);
  const { commitment, order } = prepareDeck({
    handId,
    serverSeed: randomBytes(rng, 32),
    clientSeeds: [],
    kind: 'standard52',
  });
  const hand = blind ? table.startHand({ handId, blind: true }) : table.startHand({ handId, deck: order });
  const holeOf = (seat: number): Card[] =>
    hand.operations.flatMap((op) =>
      op.type === 'deal_hole' && op.seat === seat ? op.indices.map((i) => order[i]!) : [],
    );
  while (!hand.isComplete) {
    const pending = hand.pendingBoard;
    const seat = hand.actor!;
    if (pending !== null) hand.revealBoard(pending.indices.map((i) => order[i]!));
    else if (hand.phase === 'showdown') {
      if (randomUnit(rng) < 0.5) hand.showBlind(seat, holeOf(seat));
      else hand.muckBlind(seat);
    } else if (hand.canCheck(seat)) hand.check(seat);
    else hand.call(seat);
  }
  if (blind) return { hand };
  return { hand, reveal: { ...toRevealRecord(commitment, 'holdem', hand.dealtCards()), deck: 'standard52' } };
}

/** The job as the worker builds it (services/table-worker hand-records.ts), unparsed. */
function jobOf(hand: Hand, reveal: unknown): Record<string, unknown> {
  return {
    hand_id: hand.handId,
    room_id: ROOM,
    hand_no: 1,
    game: 'holdem',
    limit: 'nl',
    blinds: { smallBlind: 1, bigBlind: 2 },
    started_at: '2026-12-01T12:00:00.000Z',
    ended_at: '2026-12-01T12:01:00.000Z',
    payload: {
      format: HAND_RECORD_FORMAT,
      hand: JSON.parse(JSON.stringify(hand.toJSON())) as unknown,
      settlement: JSON.parse(JSON.stringify(hand.settlement)) as unknown,
      ...(reveal !== undefined ? { reveal } : {}),
      seats: hand.setup.players.map((p) => ({
        seat: p.seat,
        user_id: p.id,
        name: `p${p.seat}`,
        starting_stack: p.stack,
        bot: false,
      })),
      top_ups: [],
    },
  };
}

type Payload = { hand: { setup: Record<string, unknown> }; reveal?: unknown };
const payloadOf = (job: Record<string, unknown>): Payload => job.payload as Payload;

/** The messages of the issues a refused job has, by path. */
function issues(job: unknown): string[] {
  const r = completedHandJobSchema.safeParse(job);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('completedHandJobSchema', () => {
  const standard = play(false, 'jobs-standard');
  const blind = play(true, 'jobs-blind');

  it('accepts a standard hand with its deck and reveal, and an engine-blind hand with neither', () => {
    const s = completedHandJobSchema.parse(jobOf(standard.hand, standard.reveal));
    expect(s.payload.reveal?.seed_commit).toMatch(/^sha256:/);
    expect(s.payload.hand.setup.deck).toHaveLength(52);
    const b: CompletedHandJob = completedHandJobSchema.parse(jobOf(blind.hand, undefined));
    expect(b.payload.reveal).toBeUndefined();
    expect(b.payload.hand.setup).toMatchObject({ dealing: 'blind', deck: [] });
    // The blind hand is what the worker would send: hole cards dealt unknown, by deck index.
    const ops = b.payload.hand.operations as { type: string; unknown?: true; cards?: unknown[]; indices?: number[] }[];
    const deals = ops.filter((o) => o.type === 'deal_hole');
    expect(deals.length).toBe(3);
    for (const d of deals)
      expect(d).toMatchObject({ unknown: true, cards: [], indices: [expect.any(Number), expect.any(Number)] });
    // A standard setup that says so is a standard setup.
    const explicit = jobOf(standard.hand, standard.reveal);
    payloadOf(explicit).hand.setup.dealing = 'standard';
    expect(issues(explicit)).toEqual([]);
  });

  it('refuses a standard hand without its reveal or deck, and a blind one with a deck, a deck seed or a reveal', () => {
    const noReveal = jobOf(standard.hand, undefined);
    expect(issues(noReveal)).toEqual(['payload.reveal: a standard hand needs its reveal']);
    const noDeck = jobOf(standard.hand, standard.reveal);
    payloadOf(noDeck).hand.setup.deck = [];
    expect(issues(noDeck)).toEqual(['payload.hand.setup.deck: a standard hand needs its deck']);

    const withReveal = jobOf(blind.hand, standard.reveal);
    expect(issues(withReveal)).toEqual(['payload.reveal: an engine-blind hand has no reveal']);
    const withDeck = jobOf(blind.hand, undefined);
    payloadOf(withDeck).hand.setup.deck = standard.hand.setup.deck;
    expect(issues(withDeck)).toEqual(['payload.hand.setup.deck: an engine-blind hand has no deck']);
    const withSeed = jobOf(blind.hand, undefined);
    payloadOf(withSeed).hand.setup.deckSeed = '00'.repeat(32);
    expect(issues(withSeed)).toEqual(['payload.hand.setup.deckSeed: an engine-blind hand has no deck seed']);
    const unknownMode = jobOf(blind.hand, undefined);
    payloadOf(unknownMode).hand.setup.dealing = 'engine_blind';
    expect(issues(unknownMode).join('\n')).toMatch(/payload\.hand\.setup\.dealing/);
  });
});
