import { describe, expect, it } from 'vitest';
import { expectCode, playPassively, variantHand, variantSetup, type VariantHandSpec } from '../../test/helpers.js';
import { initialDeck } from '../cards.js';
import { Hand } from '../hand/hand.js';
import type { Operation } from '../hand/operations.js';
import { SeededRng, shuffleInPlace } from '../rng.js';

const STAKES = { smallBlind: 0, bigBlind: 0, ante: 1, bringIn: 1, smallBet: 2, bigBet: 4 };

/**
 * Three players, button 3, so cards go to seats 1, 2, 3 in turn: third street two down and one up each,
 * then one card per street. s1: As Ad | 2d, s2: Ks Kd | 2c, s3: Qs Qd | Kh; fourth street 7c 2h Ac.
 */
const THREE: VariantHandSpec = {
  game: 'stud',
  stacks: { 1: 100, 2: 100, 3: 100 },
  button: 3,
  stakes: STAKES,
  deal: 'As Ks Qs Ad Kd Qd 2d 2c Kh 7c 2h Ac',
};

const seatsOf = (ops: readonly Operation[], type: string): number[] =>
  ops.flatMap((o) => (o.type === type && 'seat' in o ? [o.seat] : []));

describe('Stud third street', () => {
  it('deals two down and one up, and keeps each card’s visibility', () => {
    const h = variantHand(THREE);
    expect(seatsOf(h.operations, 'post')).toEqual([1, 2, 3]);
    const deal = h.operations.find((o) => o.type === 'deal_hole' && o.seat === 3)!;
    expect(deal).toMatchObject({ cards: ['Qs', 'Qd', 'Kh'], visibility: ['down', 'down', 'up'], indices: [2, 5, 8] });
    // Seat 1 sees its own cards and the others' up cards only; a spectator sees up cards only.
    const mine = h.view(1).players;
    expect(mine.find((p) => p.seat === 1)!.hole).toEqual(['As', 'Ad', '2d']);
    expect(mine.find((p) => p.seat === 3)!.hole).toEqual([null, null, 'Kh']);
    expect(h.view(null).players.map((p) => p.hole)).toEqual([
      [null, null, '2d'],
      [null, null, '2c'],
      [null, null, 'Kh'],
    ]);
    expect(h.view(null).players[0]!.visibility).toEqual(['down', 'down', 'up']);
  });

  it('the lowest door card brings in, clubs lowest between equal ranks', () => {
    const h = variantHand(THREE);
    // 2c (seat 2) and 2d (seat 1): clubs is the lower suit.
    expect(h.actor).toBe(2);
    expect(h.validActions()).toMatchObject({ bringIn: 1, bet: { min: 2, max: 2 }, fold: false, check: false });
    expectCode(() => h.fold(2), 'bring_in_due');
    expectCode(() => h.check(2), 'bring_in_due');
    expectCode(() => h.checkOrCall(2), 'bring_in_due');
    expectCode(() => h.bringIn(1), 'not_your_turn');
    // The same cards with the suits of the deuces swapped move the bring-in to seat 1.
    const swapped = variantHand({ ...THREE, deal: 'As Ks Qs Ad Kd Qd 2c 2d Kh' });
    expect(swapped.actor).toBe(1);
  });

  it('bring-in, calls, a completion that reopens the betting for everyone, fixed raises', () => {
    const h = variantHand(THREE);
    expect(h.bringIn(2)).toEqual({ type: 'bring_in', seat: 2, amount: 1, allIn: false });
    expect(h.actor).toBe(3);
    // Facing the bring-in: call it, complete to the small bet (whatever the bring-in was), or fold.
    expect(h.validActions()).toMatchObject({ call: 1, raise: { min: 2, max: 2 }, fold: true, bringIn: null });
    h.call(3);
    expectCode(() => h.raise(1, 3), 'amount_too_large');
    expect(h.raise(1, 2)).toMatchObject({ to: 2, full: true });
    // The bring-in and the caller acted before the completion, which is a full bet: both may raise.
    expect(h.actor).toBe(2);
    expect(h.validActions()!.raise).toEqual({ min: 4, max: 4 });
    h.raise(2, 4);
    expect(h.validActions()!.raise).toEqual({ min: 6, max: 6 });
    h.call(3);
    h.call(1);
    expect(h.streetIndex).toBe(1);
  });

  it('the bring-in player may complete instead, and a short stack brings in all-in', () => {
    const h = variantHand(THREE);
    expect(h.bet(2, 2)).toMatchObject({ type: 'bet', to: 2 });
    expect(h.validActions()).toMatchObject({ call: 2, raise: { min: 4, max: 4 } });
    // A player whose ante left less than the bring-in is all-in bringing it in, and cannot complete.
    const short = variantHand({
      ...THREE,
      stacks: { 1: 100, 2: 2, 3: 100 },
      stakes: { ...STAKES, bringIn: 2, smallBet: 4, bigBet: 8 },
    });
    expect(short.validActions()).toMatchObject({ bringIn: 1, bet: null });
    expectCode(() => short.bet(2, 4), 'bring_in_due');
    expect(short.bringIn(2)).toMatchObject({ amount: 1, allIn: true });
    // The bring-in is still called in full; the excess over the all-in comes back uncalled.
    expect(short.validActions()).toMatchObject({ call: 2 });
  });

  it('a bring-in as large as the small bet is already the completion', () => {
    const h = variantHand({ ...THREE, stakes: { ...STAKES, bringIn: 2 } });
    h.bringIn(2);
    expect(h.validActions()).toMatchObject({ call: 2, raise: { min: 4, max: 4 } });
    h.call(3);
    h.call(1);
    expect(h.streetIndex).toBe(1);
  });

  it('a timeout posts the bring-in, which cannot be folded', () => {
    const h = variantHand(THREE);
    expect(h.timeoutDecision()).toEqual({ type: 'bring_in' });
    expect(h.applyTimeout()).toEqual({ type: 'bring_in', seat: 2, amount: 1, allIn: false, timeout: true });
  });

  it('everyone folding to the bring-in returns it uncalled', () => {
    const h = variantHand(THREE);
    h.bringIn(2);
    h.fold(3);
    h.fold(1);
    const s = h.settlement!;
    expect(s.uncalled).toEqual([{ seat: 2, amount: 1 }]);
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([[3, [2]]]);
    expect(s.players.map((p) => p.finalStack)).toEqual([99, 102, 99]);
  });
});

describe('Stud fourth street and later', () => {
  function toFourth(spec: VariantHandSpec): Hand {
    const h = variantHand(spec);
    h.bringIn(h.actor!);
    while (h.streetIndex === 0) h.call(h.actor!);
    return h;
  }

  it('the highest visible hand acts first: an open pair beats ace-king', () => {
    // Up cards: s1 2d 7c, s2 2c 2h (a pair), s3 Kh Ac.
    const h = toFourth(THREE);
    expect(h.actor).toBe(2);
  });

  it('an open pair lets any wager be the small or the big bet; after a big bet, raises are big', () => {
    const h = toFourth(THREE);
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 4, choices: [2, 4] });
    expectCode(() => h.bet(2, 3), 'amount_invalid');
    h.bet(2, 2);
    // After a small bet the raise may add either amount.
    expect(h.validActions()!.raise).toEqual({ min: 4, max: 6, choices: [4, 6] });
    h.raise(3, 6);
    expect(h.state().betUnit).toBe('big');
    expect(h.validActions()!.raise).toEqual({ min: 10, max: 10 });
    // Without an open pair fourth street is small bets only.
    const plain = toFourth({ ...THREE, deal: 'As Ks Qs Ad Kd Qd 2d 2c Kh 7c 3h Ac' });
    expect(plain.actor).toBe(3);
    expect(plain.validActions()!.bet).toEqual({ min: 2, max: 2 });
  });

  it('equal visible hands leave the first seat clockwise from the button to act', () => {
    // s1 and s3 both show K-9; with the button on 3 seat 1 is first, with the button on 1 seat 3 is.
    const deal = 'As 2s Qs Ad 2d Qd Kd 3c Kh 9c 4h 9s';
    expect(toFourth({ ...THREE, deal }).actor).toBe(1);
    const button1 = { ...THREE, button: 1, deal: '2s Qs As 2d Qd Ad 3c Kh Kd 4h 9s 9c' };
    expect(toFourth(button1).actor).toBe(3);
  });

  it('fifth street and later are big bets', () => {
    const h = toFourth(THREE);
    while (h.streetIndex === 1) h.check(h.actor!);
    expect(h.streetIndex).toBe(2);
    expect(h.validActions()!.bet).toEqual({ min: 4, max: 4 });
  });
});

describe('Razz', () => {
  const RAZZ: VariantHandSpec = {
    game: 'razz',
    stacks: { 1: 100, 2: 100, 3: 100 },
    button: 3,
    stakes: STAKES,
    // Door cards: s1 Kd, s2 Ks, s3 Ac; fourth street: s1 2c, s2 3h, s3 Ad (a pair of aces).
    deal: '9s 8s 7s 9d 8d 7d Kd Ks Ac 2c 3h Ad',
  };

  it('the highest door card brings in, aces low, spades highest between equal ranks', () => {
    const h = variantHand(RAZZ);
    expect(h.actor).toBe(2);
    expect(variantHand({ ...RAZZ, deal: '9s 8s 7s 9d 8d 7d Ks Kd Ac' }).actor).toBe(1);
    // An ace is the lowest card in Razz: the queen brings in, not the ace.
    expect(variantHand({ ...RAZZ, deal: '9s 8s 7s 9d 8d 7d Ac Qs 5c' }).actor).toBe(2);
  });

  it('the lowest visible hand acts first, a pair counting against it', () => {
    const h = variantHand(RAZZ);
    h.bringIn(2);
    h.call(3);
    h.call(1);
    // s1 K-2, s2 K-3, s3 A-A: K-2 is the lowest; the pair of aces is the worst.
    expect(h.actor).toBe(1);
    // Razz has no open-pair big bet.
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 2 });
  });

  it('the best A-5 low wins, straights and flushes not counting', () => {
    const h = playPassively(
      variantHand({
        ...RAZZ,
        stacks: { 1: 100, 2: 100 },
        button: 2,
        // s1: A 2 | 3 | 4 5 6 | 7 (a wheel with a straight flush in hearts would not matter); s2: K K | Q ...
        deal: 'Ah Ks 2h Kd 3h Qs 4h Qd 5h Js 6h Jd Kh Tc',
      }),
    );
    const s = h.settlement!;
    expect(s.pots[0]!.winners).toEqual([expect.objectContaining({ seat: 1, side: 'low' })]);
    expect(s.hands.find((x) => x.seat === 1)!.names[0]).toBe('5-4-3-2-A low');
  });
});

describe('Stud Hi-Lo', () => {
  const HILO: VariantHandSpec = {
    game: 'stud8',
    stacks: { 1: 100, 2: 100, 3: 100 },
    button: 3,
    stakes: STAKES,
    // s1: trip kings; s2: 6-4-3-2-A; s3 folds on third street (door Qh, no low, no bring-in).
    // Third street: s1 Ks Kd | 9c, s2 Ah 2d | 3c, s3 Qs Qd | Qh. Then s1, s2 only: 4th Kh 4s, 5th 8c 6d,
    // 6th Jc Ts, 7th Js Td.
    deal: 'Ks Ah Qs Kd 2d Qd 9c 3c Qh Kh 4s 8c 6d Jc Ts Js Td',
  };

  it('splits a pot between the best high and the best 8-or-better low, the odd chip to the high half', () => {
    const h = variantHand(HILO);
    expect(h.actor).toBe(2); // 3c brings in
    h.bringIn(2);
    h.fold(3);
    h.call(1);
    playPassively(h);
    const s = h.settlement!;
    // Antes 3 + 1 + 1 = 5: the high half gets 3, the low half 2.
    expect(s.pots).toHaveLength(1);
    expect(s.pots[0]!.amount).toBe(5);
    expect(s.pots[0]!.winners).toEqual([
      { seat: 1, side: 'high', gross: 3, net: 3 },
      { seat: 2, side: 'low', gross: 2, net: 2 },
    ]);
  });

  it('with no qualifying low the high hand scoops', () => {
    const h = variantHand({ ...HILO, deal: 'Ks Ah Qs Kd 9d Qd 9c 3c Qh Kh Ts 8c Th Jc Td Js 9s' });
    h.bringIn(2);
    h.fold(3);
    h.call(1);
    playPassively(h);
    expect(h.settlement!.pots[0]!.winners).toEqual([{ seat: 1, side: 'high', gross: 5, net: 5 }]);
  });
});

describe('Stud all-in runouts', () => {
  it('shows the hands before the runout, keeps later down cards down until the showdown shows them', () => {
    const h = variantHand({ ...THREE, stacks: { 1: 100, 2: 4, 3: 100 } });
    h.bringIn(2);
    h.fold(3);
    h.raise(1, 2);
    h.raise(2, 3); // seat 2 is all-in: the hands are turned up and the rest is dealt
    h.call(1);
    const shows = h.operations.filter((o) => o.type === 'show');
    // The last aggressor first, the three cards each holds before the runout.
    expect(shows.slice(0, 2).map((o) => [o.seat, o.cards.length, o.reason])).toEqual([
      [2, 3, 'all_in_runout'],
      [1, 3, 'all_in_runout'],
    ]);
    // At the showdown both seven-card hands are shown in full: the seventh-street card was dealt down.
    expect(shows.slice(2).map((o) => [o.seat, o.cards.length])).toEqual([
      [2, 7],
      [1, 7],
    ]);
    expect(
      h
        .view(null)
        .players.find((p) => p.seat === 1)!
        .hole.every((c) => c !== null),
    ).toBe(true);
  });
});

describe('the community-card rule', () => {
  it('eight players to seventh street: the last card is dealt face up in the middle', () => {
    const deck = shuffleInPlace(new SeededRng('community'), initialDeck('standard52'));
    const stacks = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((s) => [s, 1000]));
    const h = playPassively(variantHand({ game: 'stud', stacks, button: 8, stakes: STAKES, deck }));
    const seventh = h.operations.filter((o) => (o.type === 'deal_hole' || o.type === 'deal_board') && o.street === 4);
    expect(seventh).toEqual([{ type: 'deal_board', street: 4, cards: [deck[48]], indices: [48] }]);
    expect(h.boardCards).toEqual([deck[48]]);
    for (const p of h.state().players) expect(p.hole).toHaveLength(6);
    // Every hand plays the community card: each judged best five comes from the hand plus the board.
    for (const judged of h.settlement!.hands) {
      const own = new Set([...h.holeCards(judged.seat), deck[48]!]);
      for (const c of judged.best[0]!) expect(own.has(c)).toBe(true);
    }
    expect(h.dealtCards().map((d) => d.index)).toEqual([...Array(49).keys()]);
  });
});

describe('Stud serialization', () => {
  it('restores mid-street on every street and plays forward to the same hand', () => {
    const deck = shuffleInPlace(new SeededRng('stud-restore'), initialDeck('standard52'));
    const spec: VariantHandSpec = {
      game: 'stud',
      stacks: { 1: 300, 2: 300, 4: 300, 6: 300 },
      button: 4,
      stakes: STAKES,
      deck,
    };
    // Decisions depend only on the hand's state, so a restored hand takes the same ones.
    const script = (h: Hand): void => {
      while (!h.isComplete) {
        const n = h.operations.length;
        const va = h.validActions()!;
        if (va.bringIn !== null) h.bringIn(va.seat);
        else if (va.bet !== null && n % 3 === 0) h.bet(va.seat, va.bet.choices?.[1] ?? va.bet.min);
        else if (va.raise !== null && n % 5 === 1) h.raise(va.seat, va.raise.min);
        else if (va.check) h.check(va.seat);
        else h.call(va.seat);
      }
    };
    const original = new Hand(variantSetup(spec));
    script(original);
    const final = JSON.stringify(original.toJSON());
    const decisions = original.operations.filter((o) =>
      ['bring_in', 'bet', 'raise', 'check', 'call', 'fold'].includes(o.type),
    );
    const streets = new Set<number>();
    for (let cut = 1; cut < decisions.length; cut += 2) {
      const partial = Hand.replay(
        original.setup,
        original.operations.slice(0, original.operations.indexOf(decisions[cut]!)),
      );
      streets.add(partial.streetIndex);
      const restored = Hand.fromJSON(JSON.parse(JSON.stringify(partial.toJSON())));
      expect(restored.state()).toEqual(partial.state());
      expect(restored.validActions()).toEqual(partial.validActions());
      expect(restored.view(null)).toEqual(partial.view(null));
      script(restored);
      expect(JSON.stringify(restored.toJSON())).toBe(final);
    }
    expect([...streets].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
