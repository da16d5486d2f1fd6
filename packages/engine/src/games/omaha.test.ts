import { describe, expect, it } from 'vitest';
import { expectCode, playPassively, variantHand, variantSetup, type VariantHandSpec } from '../../test/helpers.js';
import { initialDeck } from '../cards.js';
import { Hand } from '../hand/hand.js';

const STAKES = { smallBlind: 1, bigBlind: 2 };
const winners = (h: Hand): [number, string, number][] =>
  h.settlement!.pots.flatMap((p) => p.winners.map((w): [number, string, number] => [w.seat, w.side, w.net]));

describe('Omaha at the table: exactly two hole cards and three of the board', () => {
  it('four hearts in hand are no flush, and a pocket pair fills up with a board pair', () => {
    // Button 3; hole cards go round four times from seat 1, then the board.
    // s1 Ah Kh Qh Jh (four hearts, two on board: no flush), s2 9c 9d 2c 3c (trip nines).
    const h = playPassively(
      variantHand({
        game: 'omaha',
        stacks: { 1: 100, 2: 100, 3: 100 },
        button: 3,
        stakes: STAKES,
        // s3 7c 7d Ac Qs; the board 2h 3h 4c 5d 9s.
        deal: 'Ah 9c 7c Kh 9d 7d Qh 2c Ac Jh 3c Qs 2h 3h 4c 5d 9s',
      }),
    );
    const names = new Map(h.settlement!.hands.map((j) => [j.seat, j.names[0]]));
    expect(names.get(1)).toBe('High Card, Ace');
    expect(names.get(2)).toBe('Three of a Kind, Nines');
    expect(winners(h)).toEqual([[2, 'high', 6]]);
    const pairs = playPassively(
      variantHand({
        game: 'omaha',
        stacks: { 1: 100, 2: 100 },
        button: 2,
        stakes: STAKES,
        // Heads-up, seat 1 (the big blind) is dealt first: s1 7c 7d Ac Qs, s2 As Ad 9c 8c; board Kc Kd 7h 4s 2c.
        deal: '7c As 7d Ad Ac 9c Qs 8c Kc Kd 7h 4s 2c',
      }),
    );
    const judged = new Map(pairs.settlement!.hands.map((j) => [j.seat, j.names[0]]));
    expect(judged.get(1)).toBe('Full House, Sevens over Kings');
    expect(judged.get(2)).toBe('Two Pair, Aces and Kings');
    expect(winners(pairs)[0]![0]).toBe(1);
  });

  it('PLO5 deals five cards each and seats at most eight', () => {
    const stacks = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((s) => [s, 100]));
    const h = variantHand({ game: 'omaha5', stacks, button: 8, stakes: STAKES, deck: initialDeck('standard52') });
    expect(h.holeCards(1)).toHaveLength(5);
    expect(h.structure.limit).toBe('pl');
    expectCode(
      () => new Hand(variantSetup({ game: 'omaha5', stacks: { ...stacks, 9: 100 }, button: 8, stakes: STAKES })),
      'invalid_players',
    );
  });
});

describe('Omaha Hi-Lo', () => {
  const base: VariantHandSpec = {
    game: 'omaha8',
    stacks: { 1: 100, 2: 100, 3: 100 },
    button: 3,
    stakes: { ...STAKES, ante: 1 },
    // s1 Ac 2c Kd Kh (trip kings, 8-4-3-2-A), s2 Ad 2h Jc Ts (the same low), s3 9s 9c 6s 7s (8-7-6-4-3).
    deal: 'Ac Ad 9s 2c 2h 9c Kd Jc 6s Kh Ts 7s 3c 4d 8h Kc Qs',
  };

  it('quarters a pot: the high half to the best high, the low half split between tied lows, odd chip high', () => {
    const h = playPassively(variantHand(base));
    // Antes 3 + blinds called to 2 each = 9: high 5 (the odd chip), low 4 split 2 and 2.
    expect(h.settlement!.pots[0]!.amount).toBe(9);
    expect(winners(h)).toEqual([
      [1, 'high', 5],
      [1, 'low', 2],
      [2, 'low', 2],
    ]);
    const stacks = h.settlement!.players.map((p) => p.net);
    expect(stacks).toEqual([4, -1, -3]);
  });

  it('scoops when no hand makes a low, and the board needs three low cards for any low', () => {
    const h = playPassively(variantHand({ ...base, deal: 'Ac Ad 9s 2c 2h 9c Kd Jc 6s Kh Ts 7s 3c Td 5h Kc 9d' }));
    expect(winners(h)).toEqual([[1, 'high', 9]]);
    expect(h.settlement!.hands.every((j) => j.values[1] === null)).toBe(true);
  });

  it('the low is judged per pot among that pot’s contenders', () => {
    // Seat 2 (the only other low) is all-in short: the side pot above it has no low and goes high.
    const h = variantHand({ ...base, stacks: { 1: 100, 2: 6, 3: 100 } });
    h.raise(3, 7);
    h.call(1);
    h.call(2);
    playPassively(h);
    const pots = h.settlement!.pots;
    expect(pots.map((p) => p.eligible)).toEqual([
      [1, 2, 3],
      [1, 3],
    ]);
    expect(pots[1]!.winners.map((w) => [w.seat, w.side])).toEqual([
      [1, 'high'],
      [1, 'low'],
    ]);
  });
});

describe('Short Deck', () => {
  const SD: VariantHandSpec = {
    game: 'shortdeck',
    stacks: { 1: 100, 2: 100, 3: 100 },
    button: 3,
    stakes: { smallBlind: 0, bigBlind: 2, ante: 1, buttonBlind: 2 },
    // s1 Ah Th (a heart flush), s2 Kc Kd (kings full); board Kh 9h 8h 9c 6s.
    deal: 'Ah Kc As Th Kd Ad Kh 9h 8h 9c 6s',
  };

  it('36 cards, an ante from everyone and the button’s blind; the first player after the button acts first', () => {
    expectCode(() => new Hand(variantSetup({ ...SD, deck: initialDeck('standard52') })), 'invalid_deck');
    const h = variantHand(SD);
    expect(
      h.operations
        .filter((o) => o.type === 'post')
        .map((o) => [(o as { seat: number }).seat, (o as { kind: string }).kind]),
    ).toEqual([
      [1, 'ante'],
      [2, 'ante'],
      [3, 'ante'],
      [3, 'button_blind'],
    ]);
    expect(h.actor).toBe(1);
    expect(h.validActions()).toMatchObject({ call: 2, raise: { min: 4 } });
    // Heads-up the button posts the blind too, and the other player acts first.
    const hu = variantHand({ ...SD, stacks: { 1: 100, 2: 100 }, button: 2 });
    expect(hu.actor).toBe(1);
  });

  it('a flush beats a full house', () => {
    const h = playPassively(variantHand(SD));
    const names = new Map(h.settlement!.hands.map((j) => [j.seat, j.names[0]]));
    expect(names.get(1)).toBe('Flush, Ace high');
    expect(names.get(2)).toBe('Full House, Kings over Nines');
    expect(winners(h)).toEqual([[1, 'high', 9]]);
  });
});
