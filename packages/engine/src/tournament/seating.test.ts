import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refHoldem } from '../../test/helpers.js';
import { initialDeck } from '../cards.js';
import { SeededRng, shuffleInPlace } from '../rng.js';
import { Table } from '../table/table.js';
import { TournamentError } from './errors.js';
import {
  applySeatMoves,
  dealBrokenTable,
  drawSeats,
  handsUntilBigBlind,
  nextBigBlindSeat,
  planBalanceMove,
  seatForIncoming,
  seatingIssues,
  tableToBreak,
  tablesNeeded,
  type TableSeating,
} from './seating.js';

const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const sizes = (tables: readonly TableSeating<string>[]) => tables.map((t) => t.seats.length);
const table = (no: number, seats: number[], button: number | null = null): TableSeating<string> => ({
  table: no,
  seats: seats.map((seat) => ({ player: `t${no}s${seat}`, seat })),
  button,
});

/** A 9-seat hold'em table with these seats taken, and a hand played by folding round to the blind. */
function foldingTable(occupied: readonly number[], seed: string): { t: Table; playHand: () => void } {
  const t = new Table(
    { game: 'holdem', limit: 'nl', stakes: { smallBlind: 1, bigBlind: 2 }, maxSeats: 9 },
    { rules: refHoldem },
  );
  for (const seat of occupied) t.sit(seat, `s${seat}`, 1_000);
  const rng = new SeededRng(seed);
  const playHand = () => {
    const hand = t.startHand({ handId: crypto.randomUUID(), deck: shuffleInPlace(rng, initialDeck('standard52')) });
    while (!hand.isComplete) {
      const seat = hand.actor!;
      if (hand.canFold(seat)) hand.fold(seat);
      else hand.check(seat);
    }
    t.finishHand(hand);
  };
  return { t, playHand };
}

describe('drawSeats', () => {
  it('seats everyone once over the fewest tables, as even as they can be', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 400 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer(),
        (n, maxSeats, seed) => {
          const tables = drawSeats(players(n), maxSeats, new SeededRng(seed));
          expect(seatingIssues(tables, maxSeats)).toEqual([]);
          expect(tables).toHaveLength(tablesNeeded(n, maxSeats));
          expect(Math.max(...sizes(tables)) - Math.min(...sizes(tables))).toBeLessThanOrEqual(1);
          expect(new Set(tables.flatMap((t) => t.seats.map((s) => s.player))).size).toBe(n);
          expect(tables.map((t) => t.table)).toEqual(tables.map((_, i) => i + 1));
        },
      ),
      { seed: 1, numRuns: 300 },
    );
  });

  it('is a draw: the same seed gives the same seating, and every player lands at every table', () => {
    const a = drawSeats(players(18), 9, new SeededRng('draw'));
    expect(drawSeats(players(18), 9, new SeededRng('draw'))).toEqual(a);
    const atTableOne = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      for (const s of drawSeats(players(18), 9, new SeededRng(`d${i}`))[0]!.seats) {
        atTableOne.set(s.player, (atTableOne.get(s.player) ?? 0) + 1);
      }
    }
    // Each of 18 players is at table 1 about half of the 400 draws.
    for (const p of players(18)) expect(atTableOne.get(p)).toBeGreaterThan(140);
    for (const p of players(18)) expect(atTableOne.get(p)).toBeLessThan(260);
  });

  it('refuses fewer than two players and tables outside 2 to 10 seats', () => {
    expect(() => drawSeats(['a'], 9, new SeededRng(1))).toThrow(TournamentError);
    expect(() => drawSeats(players(4), 1, new SeededRng(1))).toThrow(TournamentError);
    expect(() => drawSeats(players(4), 11, new SeededRng(1))).toThrow(TournamentError);
  });
});

describe('handsUntilBigBlind', () => {
  it('agrees with the big blinds a Felt table actually posts, hand after hand', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 2, maxLength: 9 }),
        fc.integer({ min: 0, max: 12 }),
        (occupied, warmup) => {
          const { t, playHand } = foldingTable(occupied, occupied.join(','));
          for (let i = 0; i < warmup; i++) playHand();
          const predicted = new Map(occupied.map((s) => [handsUntilBigBlind(occupied, t.buttonSeat, s), s]));
          expect(predicted.size).toBe(occupied.length);
          for (let k = 1; k <= occupied.length; k++) {
            expect(t.planNextHand()!.bigBlind).toBe(predicted.get(k));
            playHand();
          }
        },
      ),
      { seed: 5, numRuns: 150 },
    );
  });

  it('names the next big blind, and refuses a seat not occupied', () => {
    // Button 3 now: the next hand's button is 5, its small blind 7, its big blind 1.
    expect(nextBigBlindSeat([1, 3, 5, 7], 3)).toBe(1);
    expect(nextBigBlindSeat([1, 3, 5, 7], null)).toBe(5);
    expect(nextBigBlindSeat([2, 6], 2)).toBe(2);
    expect(nextBigBlindSeat([2], 2)).toBeNull();
    expect(() => handsUntilBigBlind([1, 3], 1, 2)).toThrow(TournamentError);
  });
});

describe('an incoming player at a real table', () => {
  it('is dealt the next hand from the seat seatForIncoming picks, and posts the big blind when predicted', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 2, maxLength: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (occupied, warmup) => {
          const { t, playHand } = foldingTable(occupied, `in:${occupied.join(',')}`);
          for (let i = 0; i < warmup; i++) playHand();
          const here = {
            table: 1,
            button: t.buttonSeat,
            seats: occupied.map((seat) => ({ player: `s${seat}`, seat })),
          };
          const seat = seatForIncoming(here, 9)!;
          const wait = handsUntilBigBlind([...occupied, seat], t.buttonSeat, seat);
          t.sit(seat, 'newcomer', 1_000, { dealIn: true });
          expect(t.planNextHand()!.dealtIn).toContain(seat);
          for (let k = 1; k < wait; k++) {
            expect(t.planNextHand()!.bigBlind).not.toBe(seat);
            playHand();
          }
          expect(t.planNextHand()!.bigBlind).toBe(seat);
        },
      ),
      { seed: 8, numRuns: 150 },
    );
  });
});

describe('seatForIncoming', () => {
  it('puts the newcomer where the big blind comes to them first: just after this hand’s big blind', () => {
    // This hand: button 1, blinds 3 and 5. The next: button 3, blinds 5 and 6, the newcomer.
    expect(seatForIncoming(table(1, [1, 3, 5, 8], 1), 9)).toBe(6);
    // Before the first hand (its button will be 1, its blinds 3 and then the newcomer's 4).
    expect(seatForIncoming(table(1, [1, 3, 5, 8]), 9)).toBe(4);
    expect(seatForIncoming(table(1, [1, 2, 3, 4, 5, 6, 7, 8, 9]), 9)).toBeNull();
    expect(seatForIncoming(table(1, []), 9)).toBe(1);
  });

  it('never picks a seat whose big blind comes later than another free seat’s', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 1, max: 9 })),
        (occupied, button) => {
          const t = table(1, occupied, button);
          const seat = seatForIncoming(t, 9)!;
          expect(occupied).not.toContain(seat);
          const wait = handsUntilBigBlind([...occupied, seat], button, seat);
          for (let s = 1; s <= 9; s++) {
            if (!occupied.includes(s))
              expect(handsUntilBigBlind([...occupied, s], button, s)).toBeGreaterThanOrEqual(wait);
          }
        },
      ),
      { seed: 9, numRuns: 300 },
    );
  });
});

describe('balancing and breaking', () => {
  it('moves the next big blind of the largest table to the smallest', () => {
    const tables = [table(1, [1, 2, 3, 4, 5, 6], 2), table(2, [1, 2, 3, 4]), table(3, [2, 5], 5)];
    expect(planBalanceMove(tables, 6)).toEqual({
      player: 't1s5',
      from: { table: 1, seat: 5 },
      to: { table: 3, seat: seatForIncoming(tables[2]!, 6) },
    });
    expect(planBalanceMove([table(1, [1, 2, 3]), table(2, [1, 2])], 6)).toBeNull();
  });

  it('breaks the table with the fewest players, the highest number among equals, once the rest can seat everyone', () => {
    expect(tableToBreak([table(1, [1, 2, 3]), table(2, [1, 2, 3]), table(3, [1, 2, 3])], 4)).toBeNull();
    expect(tableToBreak([table(1, [1, 2, 3]), table(2, [1, 2, 3]), table(3, [1, 2])], 4)).toBe(3);
    expect(tableToBreak([table(1, [1, 2]), table(2, [1, 2, 3]), table(3, [1, 2])], 6)).toBe(3);
    expect(tableToBreak([table(1, [1, 2])], 6)).toBeNull();
    expect(() => dealBrokenTable([table(1, [1, 2, 3]), table(2, [1, 2, 3])], 2, 4, new SeededRng(1))).toThrow(
      TournamentError,
    );
  });

  it('keeps every player seated once, tables at most one apart and no more of them than needed, bust after bust', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 120 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer(),
        (n, maxSeats, seed) => {
          const rng = new SeededRng(seed);
          let tables = drawSeats(players(n), maxSeats, rng);
          let left = new Set(players(n));
          while (left.size > 1) {
            // A hand at every table moves its button; one to three players bust somewhere.
            tables = tables.map((t) => ({
              ...t,
              button: nextBigBlindSeat(
                t.seats.map((s) => s.seat),
                t.button,
              ),
            }));
            const all = tables.flatMap((t) => t.seats.map((s) => s.player));
            const busts = new Set(
              shuffleInPlace(rng, all).slice(0, Math.min(all.length - 1, 1 + (rng.nextUint32() % 3))),
            );
            tables = tables
              .map((t) => ({ ...t, seats: t.seats.filter((s) => !busts.has(s.player)) }))
              .filter((t) => t.seats.length > 0);
            left = new Set([...left].filter((p) => !busts.has(p)));
            for (
              let breaking = tableToBreak(tables, maxSeats);
              breaking !== null;
              breaking = tableToBreak(tables, maxSeats)
            ) {
              const moves = dealBrokenTable(tables, breaking, maxSeats, rng);
              expect(moves.map((m) => m.from.table).every((t) => t === breaking)).toBe(true);
              tables = applySeatMoves(tables, moves);
              expect(tables.some((t) => t.table === breaking)).toBe(false);
            }
            for (
              let move = planBalanceMove(tables, maxSeats);
              move !== null;
              move = planBalanceMove(tables, maxSeats)
            ) {
              const source = tables.find((t) => t.table === move.from.table)!;
              expect(move.from.seat).toBe(
                nextBigBlindSeat(
                  source.seats.map((s) => s.seat),
                  source.button,
                ),
              );
              tables = applySeatMoves(tables, [move]);
            }
            expect(seatingIssues(tables, maxSeats)).toEqual([]);
            expect(new Set(tables.flatMap((t) => t.seats.map((s) => s.player)))).toEqual(left);
            expect(tables).toHaveLength(tablesNeeded(left.size, maxSeats));
            expect(Math.max(...sizes(tables)) - Math.min(...sizes(tables))).toBeLessThanOrEqual(1);
          }
        },
      ),
      { seed: 21, numRuns: 200 },
    );
  });
});

describe('applySeatMoves and seatingIssues', () => {
  it('refuses a move from a seat the player does not hold or onto a taken seat', () => {
    const tables = [table(1, [1, 2]), table(2, [1])];
    expect(() =>
      applySeatMoves(tables, [{ player: 't1s2', from: { table: 1, seat: 1 }, to: { table: 2, seat: 2 } }]),
    ).toThrow(TournamentError);
    expect(() =>
      applySeatMoves(tables, [{ player: 't1s2', from: { table: 1, seat: 2 }, to: { table: 2, seat: 1 } }]),
    ).toThrow(TournamentError);
    expect(
      applySeatMoves(tables, [{ player: 't2s1', from: { table: 2, seat: 1 }, to: { table: 1, seat: 3 } }]),
    ).toEqual([{ table: 1, button: null, seats: [...tables[0]!.seats, { player: 't2s1', seat: 3 }] }]);
  });

  it('names a seat out of range or taken twice, a player at two tables and a table listed twice', () => {
    const bad: TableSeating<string>[] = [
      {
        table: 1,
        button: null,
        seats: [
          { player: 'a', seat: 0 },
          { player: 'b', seat: 2 },
          { player: 'c', seat: 2 },
        ],
      },
      { table: 1, button: null, seats: [{ player: 'a', seat: 1 }] },
    ];
    expect(seatingIssues(bad, 6)).toEqual([
      'table 1: seat 0 out of range',
      'table 1: seat 2 taken twice',
      'table 1 listed twice',
      'player a at tables 1 and 1',
    ]);
  });
});
