import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BlindParticipant,
  BlindRefusal,
  blindView,
  expire,
  requestCards,
  startBlindHand,
  submitKey,
  submitShares,
  submitShuffle,
  type BlindHandSetup,
  type BlindHandState,
  type BlindMessage,
  type BlindResult,
  type BlindStep,
  type CardRequest,
} from '../index.js';
import { seededRng } from '../crypto/seeded-rng.test-support.js';

// A short deck and a small lambda keep the tests quick; the crypto's own tests run the full 52 at 40.
const CARDS = ['As', 'Ks', 'Qs', 'Js', 'Ts', '9s', '8s', '7s', '6s', '5s', '4s', '3s', '2s', 'Ah'];
const DEADLINES = { keyMs: 2_000, shuffleMs: 5_000, shareMs: 2_000 };

function setupFor(seats: readonly number[], handId = 'h1', lambda = 3): BlindHandSetup {
  return { tableId: 't1', handId, seats, cards: CARDS, lambda, deadlines: DEADLINES };
}

/** The table's side: takes each message, relays each step to every participant (as the event stream does). */
class Table {
  state: BlindHandState;
  readonly steps: BlindStep[] = [];
  constructor(
    setup: BlindHandSetup,
    readonly players: Map<number, BlindParticipant>,
    public now = 1_000,
  ) {
    this.state = startBlindHand(setup, now);
  }

  take(result: BlindResult): BlindResult {
    this.state = result.state;
    if (result.step !== undefined) {
      this.steps.push(result.step);
      for (const p of this.players.values()) p.observe(result.step);
    }
    return result;
  }

  send(seat: number, message: BlindMessage): BlindResult {
    if (message.kind === 'key') return this.take(submitKey(this.state, seat, message.proof, this.now));
    if (message.kind === 'shuffle') {
      return this.take(submitShuffle(this.state, seat, message.output, message.proof, this.now));
    }
    return this.take(submitShares(this.state, seat, message.shares));
  }

  /** Every participant answers what it owes until nobody owes anything (in `order` each round). */
  settle(order: readonly number[] = [...this.players.keys()]): void {
    for (let round = 0; round < 20; round += 1) {
      let sent = false;
      for (const seat of order) {
        const player = this.players.get(seat);
        if (player === undefined) continue;
        for (const m of player.next(blindView(this.state, seat))) {
          sent = true;
          this.send(seat, m);
        }
      }
      if (!sent) return;
    }
    throw new Error('did not settle');
  }

  deal(requests: readonly CardRequest[]): BlindResult {
    return this.take(requestCards(this.state, requests, this.now));
  }
}

/** Participants draw from seeded bytes, so every run of a test plays the same hand. */
function tableOf(seats: readonly number[], handId = 'h1', lambda = 3): Table {
  const setup = setupFor(seats, handId, lambda);
  return new Table(
    setup,
    new Map(seats.map((s) => [s, new BlindParticipant(setup, s, { rng: seededRng(`${handId}/${s}`) })])),
  );
}

/** Hold'em's deal on the short deck: two hole cards each (positions 0..2n-1), then the board. */
function dealHoles(table: Table, seats: readonly number[]): void {
  table.deal(
    seats.flatMap((seat, i) => [
      { position: 2 * i, to: seat },
      { position: 2 * i + 1, to: seat },
    ]),
  );
}

describe('an engine-blind hand', () => {
  it('keys, shuffles, deals hole cards only their owners read, opens the board and a shown hand', () => {
    const seats = [1, 3, 5];
    const table = tableOf(seats);
    table.settle();
    expect(table.state.phase).toBe('play');
    expect(table.state.shuffled).toBe(3);
    expect(table.state.deadline).toBeNull();
    expect(table.steps.map((s) => s.kind)).toEqual(['key', 'key', 'key', 'shuffle', 'shuffle', 'shuffle']);

    dealHoles(table, seats);
    table.settle();
    const holes = new Map<number, string[]>();
    for (const seat of seats) {
      const player = table.players.get(seat) as BlindParticipant;
      const mine = player.holeCards(blindView(table.state, seat));
      const i = seats.indexOf(seat);
      expect([...mine.keys()].sort((a, b) => a - b)).toEqual([2 * i, 2 * i + 1]);
      holes.set(seat, [...mine.values()]);
      // Nobody else can read them: the other views carry no share of this seat's cards.
      for (const other of seats.filter((s) => s !== seat)) {
        const theirs = table.players.get(other) as BlindParticipant;
        expect(theirs.holeCards(blindView(table.state, other)).size).toBe(2);
        for (const p of blindView(table.state, other).positions.filter((q) => q.to === seat)) {
          expect(p.shares).toEqual({});
        }
      }
    }
    // The server holds every share but each owner's own: no hole card is open to it.
    expect(table.state.deadline).toBeNull();
    for (const seat of seats) {
      for (const position of [2 * seats.indexOf(seat), 2 * seats.indexOf(seat) + 1]) {
        expect(table.state.shares[position]?.[seat]).toBeUndefined();
        expect(table.state.positions[position]?.card).toBeUndefined();
      }
    }

    const flop = table.deal([6, 7, 8].map((position) => ({ position, to: 'board' as const })));
    expect(flop.opened).toEqual([]);
    expect(table.state.deadline).toBe(table.now + DEADLINES.shareMs);
    table.settle();
    const board = [6, 7, 8].map((p) => table.state.positions[p]?.card);
    expect(board.every((c) => c !== undefined)).toBe(true);

    // Seat 3 shows; seats 1 and 5 do not.
    const shower = table.players.get(3) as BlindParticipant;
    const shown = table.send(3, shower.show(blindView(table.state, 3), [2, 3]));
    expect(shown.opened).toEqual([2, 3]);
    expect([table.state.positions[2]?.card, table.state.positions[3]?.card]).toEqual(holes.get(3));
    // Every card seen anywhere is a distinct card of the deck.
    const seen = [...holes.values()].flat().concat(board as string[]);
    expect(new Set(seen).size).toBe(seen.length);
    for (const c of seen) expect(CARDS).toContain(c);
    // Unshown hole cards stay closed, in the state and in a spectator's view.
    expect(table.state.positions[0]?.card).toBeUndefined();
    expect(blindView(table.state, null).positions.find((p) => p.position === 0)?.shares).toEqual({});
  });

  it('continues from a checkpoint taken mid-shuffle, as a new owner would', () => {
    const seats = [0, 1, 2];
    const table = tableOf(seats);
    const p0 = table.players.get(0) as BlindParticipant;
    const answer = (seat: number): void => {
      for (const m of (table.players.get(seat) as BlindParticipant).next(blindView(table.state, seat))) {
        table.send(seat, m);
      }
    };
    for (const seat of seats) answer(seat);
    answer(0);
    expect(table.state.phase).toBe('shuffle');
    expect(table.state.shuffled).toBe(1);
    table.state = JSON.parse(JSON.stringify(table.state)) as BlindHandState;
    table.settle();
    dealHoles(table, seats);
    table.settle();
    expect(p0.holeCards(blindView(table.state, 0)).size).toBe(2);
    expect(table.state.phase).toBe('play');
  });

  it('opens the board without a folded player who released its shares early', () => {
    const seats = [1, 2, 3];
    const table = tableOf(seats);
    table.settle();
    dealHoles(table, seats);
    table.settle();
    const folded = table.players.get(2) as BlindParticipant;
    const release = folded.release(blindView(table.state, 2));
    expect(release).not.toBeNull();
    table.send(2, release as BlindMessage);
    table.players.delete(2); // gone
    table.deal([6, 7, 8].map((position) => ({ position, to: 'board' as const })));
    table.settle();
    expect([6, 7, 8].every((p) => table.state.positions[p]?.card !== undefined)).toBe(true);
    expect(table.state.deadline).toBeNull();
    // Its own hole cards were never part of what it released.
    expect(table.state.shares[2]?.[2]).toBeUndefined();
    expect(table.state.shares[3]?.[2]).toBeUndefined();
  });

  it('refuses messages out of turn, from strangers or twice, and changes nothing', () => {
    const seats = [4, 7];
    const table = tableOf(seats);
    const p4 = table.players.get(4) as BlindParticipant;
    const stranger = new BlindParticipant(setupFor(seats), 9);
    const strangerKey = stranger.next({ ...blindView(table.state, 4) })[0] as BlindMessage;
    const before = table.state;
    expect(() => table.send(9, strangerKey)).toThrow(BlindRefusal);
    const [key4] = p4.next(blindView(table.state, 4));
    table.send(4, key4 as BlindMessage);
    const afterKey = table.state;
    expect(() => table.send(4, key4 as BlindMessage)).toThrowError(
      expect.objectContaining({ code: 'blind_already_sent' }),
    );
    expect(table.state).toBe(afterKey);
    expect(before.phase).toBe('keys');
    expect(() => requestCards(table.state, [{ position: 0, to: 4 }], table.now)).toThrowError(
      expect.objectContaining({ code: 'blind_wrong_phase' }),
    );
    table.settle();
    // In play: a position off the deck, or dealt twice, is refused.
    expect(() => requestCards(table.state, [{ position: CARDS.length, to: 4 }], table.now)).toThrowError(
      expect.objectContaining({ code: 'blind_bad_position' }),
    );
    table.deal([{ position: 0, to: 4 }]);
    expect(() => requestCards(table.state, [{ position: 0, to: 7 }], table.now)).toThrowError(
      expect.objectContaining({ code: 'blind_bad_position' }),
    );
    expect(() => requestCards(table.state, [{ position: 1, to: 9 }], table.now)).toThrowError(
      expect.objectContaining({ code: 'blind_not_participant' }),
    );
  });

  it('refuses a shuffle out of turn', () => {
    const seats = [1, 2];
    const table = tableOf(seats);
    for (const seat of seats) {
      const [key] = (table.players.get(seat) as BlindParticipant).next(blindView(table.state, seat));
      table.send(seat, key as BlindMessage);
    }
    expect(table.state.phase).toBe('shuffle');
    // Seat 2 shuffles out of turn: build its message from a view that says it is owed.
    const view = { ...blindView(table.state, 2), owed: { key: false, shuffle: true, positions: [] } };
    const [shuffle] = (table.players.get(2) as BlindParticipant).next(view);
    const before = table.state;
    expect(() => table.send(2, shuffle as BlindMessage)).toThrowError(
      expect.objectContaining({ code: 'blind_not_your_turn' }),
    );
    expect(table.state).toBe(before);
  });
});

describe('an engine-blind hand fails, naming whom to blame', () => {
  it('on a key proven for another seat', () => {
    const table = tableOf([1, 2]);
    const [key] = (table.players.get(1) as BlindParticipant).next(blindView(table.state, 1));
    const result = table.send(2, key as BlindMessage);
    expect(result.step).toBeUndefined();
    expect(table.state.phase).toBe('failed');
    expect(table.state.failure).toEqual({ reason: 'bad_proof', step: 'key', seats: [2] });
  });

  it('on a shuffle whose output was tampered with', () => {
    // At the real lambda: at 3, a tampered deck passes the cut-and-choose with probability 1/8.
    const table = tableOf([1, 2], 'h1', 40);
    for (const seat of [1, 2]) {
      const [key] = (table.players.get(seat) as BlindParticipant).next(blindView(table.state, seat));
      table.send(seat, key as BlindMessage);
    }
    const [m] = (table.players.get(1) as BlindParticipant).next(blindView(table.state, 1));
    const shuffle = m as Extract<BlindMessage, { kind: 'shuffle' }>;
    const swapped = [shuffle.output[1], shuffle.output[0], ...shuffle.output.slice(2)] as typeof shuffle.output;
    table.send(1, { ...shuffle, output: swapped });
    expect(table.state.failure).toEqual({ reason: 'bad_proof', step: 'shuffle', seats: [1] });
    // The deck is the one before the bad shuffle: nothing of it was taken.
    expect(table.state.shuffled).toBe(0);
  });

  it('on a share made with another key', () => {
    const seats = [1, 2, 3];
    const table = tableOf(seats);
    table.settle();
    table.deal([{ position: 0, to: 1 }]);
    const [fromTwo] = (table.players.get(2) as BlindParticipant).next(blindView(table.state, 2));
    // Seat 3 passes off seat 2's share as its own.
    table.send(3, fromTwo as BlindMessage);
    expect(table.state.failure).toEqual({ reason: 'bad_proof', step: 'shares', seats: [3] });
  });

  it('at each deadline, blaming whoever still owed the step', () => {
    // Keys: seat 2 never sends.
    const keys = tableOf([1, 2, 3]);
    const [k1] = (keys.players.get(1) as BlindParticipant).next(blindView(keys.state, 1));
    keys.send(1, k1 as BlindMessage);
    expect(expire(keys.state, keys.now + DEADLINES.keyMs - 1).state).toBe(keys.state);
    expect(expire(keys.state, keys.now + DEADLINES.keyMs).state.failure).toEqual({
      reason: 'timeout',
      step: 'key',
      seats: [2, 3],
    });

    // Shuffle: the second shuffler stalls; the deadline restarts for each shuffler.
    const late = tableOf([5, 6]);
    for (const seat of [5, 6]) {
      const [key] = (late.players.get(seat) as BlindParticipant).next(blindView(late.state, seat));
      late.send(seat, key as BlindMessage);
    }
    late.now += 3_000;
    const [s5] = (late.players.get(5) as BlindParticipant).next(blindView(late.state, 5));
    late.send(5, s5 as BlindMessage);
    expect(late.state.deadline).toBe(late.now + DEADLINES.shuffleMs);
    expect(expire(late.state, late.now + DEADLINES.shuffleMs).state.failure).toEqual({
      reason: 'timeout',
      step: 'shuffle',
      seats: [6],
    });

    // Shares: seat 3 withholds its share of seat 1's card.
    const shares = tableOf([1, 2, 3]);
    shares.settle();
    shares.deal([
      { position: 0, to: 1 },
      { position: 1, to: 2 },
    ]);
    shares.players.delete(3);
    shares.settle();
    expect(shares.state.deadline).toBe(shares.now + DEADLINES.shareMs);
    expect(expire(shares.state, shares.now + DEADLINES.shareMs).state.failure).toEqual({
      reason: 'timeout',
      step: 'shares',
      seats: [3],
    });
  });

  it("when a participant's audit finds a deck the shuffles did not make, it stops answering", () => {
    const seats = [1, 2];
    const table = tableOf(seats);
    table.settle();
    table.deal([{ position: 0, to: 2 }]);
    const view = blindView(table.state, 1);
    const forged = { ...view, deck: [view.deck[1], view.deck[0], ...view.deck.slice(2)] } as typeof view;
    const p1 = table.players.get(1) as BlindParticipant;
    expect(p1.next(forged)).toEqual([]);
    expect(p1.failure?.step).toBe('deck');
    expect(p1.next(blindView(table.state, 1))).toEqual([]);
  });
});

describe('engine-blind hands, property', () => {
  it('any seats, answering in any order, read and open distinct cards of the deck', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 8 }), { minLength: 2, maxLength: 3 }),
        fc.infiniteStream(fc.nat()),
        (seats, noise) => {
          const table = tableOf(seats, `h-${seats.join('-')}`);
          const shuffleOrder = (): number[] => {
            const order = [...seats];
            for (let i = order.length - 1; i > 0; i -= 1) {
              const j = (noise.next().value as number) % (i + 1);
              [order[i], order[j]] = [order[j] as number, order[i] as number];
            }
            return order;
          };
          table.settle(shuffleOrder());
          dealHoles(table, seats);
          table.settle(shuffleOrder());
          const boardFrom = 2 * seats.length;
          table.deal([0, 1, 2].map((i) => ({ position: boardFrom + i, to: 'board' as const })));
          table.settle(shuffleOrder());
          const cards: string[] = [];
          for (const seat of seats) {
            const player = table.players.get(seat) as BlindParticipant;
            const mine = player.holeCards(blindView(table.state, seat));
            expect(mine.size).toBe(2);
            cards.push(...mine.values());
            expect(player.failure).toBeNull();
          }
          for (let i = 0; i < 3; i += 1) cards.push(table.state.positions[boardFrom + i]?.card as string);
          expect(new Set(cards).size).toBe(cards.length);
          for (const c of cards) expect(CARDS).toContain(c);
          expect(table.state.phase).toBe('play');
        },
      ),
      { numRuns: 6, seed: 20261204 },
    );
  });
});
