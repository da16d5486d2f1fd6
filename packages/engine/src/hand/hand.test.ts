import { describe, expect, it } from 'vitest';
import { quickHand, quickSetup, refOptions, stacksOf } from '../../test/helpers.js';
import { ActionError } from '../errors.js';
import { Hand } from './hand.js';
import type { Operation } from './operations.js';

function expectActionError(fn: () => unknown, code: string): ActionError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ActionError);
    expect((e as ActionError).code).toBe(code);
    return e as ActionError;
  }
  throw new Error(`expected ActionError ${code}`);
}

const types = (ops: readonly Operation[]): string[] => ops.map((o) => o.type);

describe('action order', () => {
  it('heads-up: the button posts the small blind and acts first preflop, last after', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1 });
    const posts = h.operations.filter((o) => o.type === 'post');
    expect(posts).toEqual([
      { type: 'post', seat: 1, kind: 'small_blind', amount: 1, allIn: false },
      { type: 'post', seat: 2, kind: 'big_blind', amount: 2, allIn: false },
    ]);
    expect(h.actor).toBe(1);
    h.call(1);
    // The big blind's option.
    expect(h.actor).toBe(2);
    expect(h.validActions()).toMatchObject({ check: true, fold: false, raise: { min: 4, max: 100 } });
    h.check(2);
    expect(h.boardCards).toHaveLength(3);
    expect(h.actor).toBe(2);
    h.check(2);
    expect(h.actor).toBe(1);
    h.check(1);
    expect(h.actor).toBe(2);
  });

  it('three-handed: first after the big blind preflop, first after the button later', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100, 3: 100 }, button: 3 });
    expect(h.operations.filter((o) => o.type === 'post').map((o) => (o as { seat: number }).seat)).toEqual([1, 2]);
    expect(h.actor).toBe(3);
    h.call(3);
    expect(h.actor).toBe(1);
    h.call(1);
    expect(h.actor).toBe(2);
    h.check(2);
    expect(h.actor).toBe(1);
    h.check(1);
    expect(h.actor).toBe(2);
    h.bet(2, 10);
    expect(h.actor).toBe(3);
    h.call(3);
    expect(h.actor).toBe(1);
    h.fold(1);
    expect(h.streetIndex).toBe(2);
    expect(h.actor).toBe(2);
  });

  it('skips empty seat numbers and wraps around', () => {
    const h = quickHand({ stacks: { 2: 100, 5: 100, 9: 100 }, button: 9 });
    expect(h.positionOrder()).toEqual([2, 5, 9]);
    expect(h.actor).toBe(9);
  });
});

describe('raising', () => {
  it('the minimum raise follows the last full raise', () => {
    const h = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 1000, 4: 1000 }, button: 4 });
    expect(h.actor).toBe(3);
    expect(h.validActions()!.raise).toEqual({ min: 4, max: 1000 });
    h.raise(3, 6);
    expect(h.validActions()!.raise).toEqual({ min: 10, max: 1000 });
    const e = expectActionError(() => h.raise(4, 9), 'amount_too_small');
    expect(e.details).toMatchObject({ seat: 4, min: 10, max: 1000, amount: 9 });
    h.raise(4, 20);
    expect(h.validActions()!.raise!.min).toBe(34);
    h.call(1);
    h.call(2);
    h.call(3);
    // Post-flop the minimum bet is the big blind, then the bet size sets the raise.
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 980 });
    h.bet(1, 10);
    expect(h.validActions()!.raise!.min).toBe(20);
  });

  it('an all-in short of a full raise does not reopen the betting for players who acted', () => {
    const h = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 1000, 4: 150 }, button: 1 });
    // Preflop: everyone in for the big blind.
    h.call(4);
    h.call(1);
    h.call(2);
    h.check(3);
    h.bet(2, 100);
    h.call(3);
    // 148 is a raise of 48 over 100: not a full raise.
    const short = h.raise(4, 148);
    expect(short).toMatchObject({ to: 148, allIn: true, full: false });
    // Seat 1 has not acted on the flop: it may raise, and the minimum is a full raise over 148.
    expect(h.validActions()!.raise!.min).toBe(248);
    h.call(1);
    expect(h.actor).toBe(2);
    expect(h.validActions()).toMatchObject({ raise: null, call: 48 });
    expectActionError(() => h.raise(2, 300), 'raise_not_reopened');
    expect(h.canRaise(2, 300)).toBe(false);
    h.call(2);
    expectActionError(() => h.raise(3, 300), 'raise_not_reopened');
    h.call(3);
    expect(h.streetIndex).toBe(2);
  });

  it('a full raise does reopen it, and so do short all-ins that add up to one', () => {
    const full = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 1000, 4: 300 }, button: 1 });
    full.call(4);
    full.call(1);
    full.call(2);
    full.check(3);
    full.bet(2, 100);
    full.call(3);
    expect(full.raise(4, 298)).toMatchObject({ full: true, allIn: true });
    full.call(1);
    expect(full.validActions()!.raise).toEqual({ min: 496, max: 998 });
    full.raise(2, 600);

    // 100, then all-in to 150 (short), then all-in to 220 (short): 120 over the first bet reopens.
    const sum = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 152, 4: 222 }, button: 1 });
    sum.call(4);
    sum.call(1);
    sum.call(2);
    sum.check(3);
    sum.bet(2, 100);
    expect(sum.raise(3, 150)).toMatchObject({ full: false });
    expect(sum.raise(4, 220)).toMatchObject({ full: false });
    sum.call(1);
    expect(sum.actor).toBe(2);
    expect(sum.validActions()!.raise).toEqual({ min: 320, max: 998 });
  });

  it('pot limit caps a raise at the pot after calling', () => {
    const h = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 1000 }, button: 3, limit: 'pl' });
    // Pot 3, call 2: raise to 2 + 3 + 2 = 7.
    expect(h.validActions()!.raise).toEqual({ min: 4, max: 7 });
    expectActionError(() => h.raise(3, 8), 'amount_too_large');
    h.raise(3, 7);
    // Seat 1 (in for 1): pot 10 after its call of 6 becomes 16: raise to 7 + 16 = 23.
    expect(h.validActions()!.raise).toEqual({ min: 12, max: 23 });
    h.call(1);
    h.call(2);
    // Post-flop: pot 21, the bet may be the pot.
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 21 });
  });

  it('fixed limit: fixed sizes, big bets from the turn, and a cap of four bets a round', () => {
    const h = quickHand({ stacks: { 1: 1000, 2: 1000, 3: 1000 }, button: 3, limit: 'fl' });
    expect(h.validActions()!.raise).toEqual({ min: 4, max: 4 });
    expectActionError(() => h.raise(3, 6), 'amount_too_large');
    h.raise(3, 4);
    h.raise(1, 6);
    h.raise(2, 8);
    h.raise(3, 10);
    expect(h.validActions()!.raise).toBeNull();
    expectActionError(() => h.raise(1, 12), 'raise_cap_reached');
    h.call(1);
    h.call(2);
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 2 });
    h.check(1);
    h.check(2);
    h.check(3);
    expect(h.validActions()!.bet).toEqual({ min: 4, max: 4 });
  });
});

describe('blinds and antes', () => {
  it('the big blind gets its option after limps', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100, 3: 100 }, button: 3 });
    h.call(3);
    h.call(1);
    expect(h.actor).toBe(2);
    expect(h.canCheck(2)).toBe(true);
    h.raise(2, 8);
    expect(h.actor).toBe(3);
  });

  it('players must call the full big blind even when it is posted short', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 1, 3: 100 }, button: 3 });
    expect(h.operations[1]).toMatchObject({ type: 'post', seat: 2, amount: 1, allIn: true });
    expect(h.validActions()).toMatchObject({ call: 2, raise: { min: 4 } });
    h.call(3);
    h.fold(1);
    // Seat 3 is alone against the all-in: its chip above the big blind's 1 goes back, no action left.
    const s = h.settlement!;
    expect(s.uncalled).toEqual([{ seat: 3, amount: 1 }]);
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([[3, [2, 3]]]);
  });

  it('a big-blind ante is dead money in the main pot, after the blind when short', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 5, 3: 100 }, button: 3, stakes: { bigBlindAnte: 4 } });
    expect(h.operations.filter((o) => o.type === 'post')).toEqual([
      { type: 'post', seat: 1, kind: 'small_blind', amount: 1, allIn: false },
      { type: 'post', seat: 2, kind: 'big_blind', amount: 2, allIn: false },
      { type: 'post', seat: 2, kind: 'bb_ante', amount: 3, allIn: true },
    ]);
    h.call(3);
    h.call(1);
    for (let i = 0; i < 3; i++) {
      h.check(1);
      h.check(3);
    }
    const s = h.settlement!;
    // All chips (2 + 2 + 2 live, 3 dead) are in one main pot that all three contest.
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([[9, [1, 2, 3]]]);
  });

  it('antes are a round of their own: a short ante caps the main pot', () => {
    const h = quickHand({
      stacks: { 1: 100, 2: 100, 3: 3 },
      button: 3,
      stakes: { ante: 5 },
      hole: { 3: 'AsAh', 1: '7c2d', 2: '8c3d' },
      board: 'AdKc9h4s5c',
    });
    expect(
      h.operations.filter((o) => o.type === 'post' && o.kind === 'ante').map((o) => (o as { amount: number }).amount),
    ).toEqual([5, 5, 3]);
    h.call(1);
    h.check(2);
    for (let i = 0; i < 3; i++) {
      h.check(1);
      h.check(2);
    }
    const s = h.settlement!;
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([
      [9, [1, 2, 3]],
      [8, [1, 2]],
    ]);
    expect(stacksOf(h)[3]).toBe(9);
  });
});

describe('uncalled antes', () => {
  it('the ante nobody matched goes back before the pots form, and is never raked', () => {
    // Seat 1 is all-in on a 40-chip ante; seat 2's other 60 ante chips are uncalled.
    const h = quickHand({
      stacks: { 1: 40, 2: 1000 },
      button: 1,
      stakes: { ante: 100 },
      rake: { percent: 10, cap: 0, noFlopNoDrop: false },
      hole: { 1: 'AsAd', 2: '7c2h' },
      board: 'Kd9d4c8h3s',
    });
    expect(h.isComplete).toBe(true);
    const s = h.settlement!;
    expect(s.uncalled).toEqual([
      { seat: 2, amount: 60 },
      { seat: 2, amount: 2 },
    ]);
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([[80, [1, 2]]]);
    expect(s.rake.amount).toBe(8);
    expect(stacksOf(h)).toEqual({ 1: 72, 2: 960 });
  });
});

describe('pots', () => {
  it('side pots with three all-ins at different levels, then a pot over them', () => {
    const h = quickHand({
      stacks: { 1: 50, 2: 120, 3: 300, 4: 1000, 5: 1000 },
      button: 5,
      hole: { 1: 'AsAd', 2: 'KsKd', 3: 'QsQd', 4: 'JsJd', 5: '7c2h' },
      board: '2c5h8d9s3c',
    });
    h.raise(3, 300);
    h.call(4);
    h.call(5);
    h.call(1);
    h.call(2);
    expect(h.actor).toBe(4);
    h.bet(4, 100);
    h.call(5);
    h.bet(4, 200);
    const before = h.operations.length;
    h.fold(5);
    const after = h.operationsSince(before);
    // The turn bet goes back; every live hand is shown before the river runs out.
    expect(types(after).slice(0, 7)).toEqual(['fold', 'return', 'show', 'show', 'show', 'show', 'deal_board']);
    const s = h.settlement!;
    expect(s.pots.map((p) => ({ amount: p.amount, from: p.from, to: p.to, eligible: p.eligible }))).toEqual([
      { amount: 250, from: 0, to: 50, eligible: [1, 2, 3, 4, 5].filter((x) => x !== 5) },
      { amount: 280, from: 50, to: 120, eligible: [2, 3, 4] },
      { amount: 540, from: 120, to: 300, eligible: [3, 4] },
      { amount: 200, from: 300, to: 400, eligible: [4] },
    ]);
    expect(s.uncalled).toEqual([{ seat: 4, amount: 200 }]);
    expect(stacksOf(h)).toEqual({ 1: 250, 2: 280, 3: 540, 4: 800, 5: 600 });
  });

  it('a fold on each street keeps the folder’s chips at the levels they were bet', () => {
    const h = quickHand({
      stacks: { 1: 5000, 2: 5000, 3: 30, 4: 5000, 5: 5000, 6: 5000 },
      button: 6,
      hole: { 3: 'AsAd', 6: '7c2h', 1: '8c8d', 2: '9c9d', 4: 'TcTd', 5: 'JcJd' },
      board: 'Ah5h8s3dKc',
    });
    h.raise(3, 30);
    h.raise(4, 100);
    h.call(5);
    h.call(6);
    h.call(1);
    h.fold(2); // preflop, after posting the big blind
    h.bet(1, 50);
    h.call(4);
    h.raise(5, 200);
    h.call(6);
    h.fold(1); // flop, after betting
    h.call(4);
    h.bet(4, 100);
    h.raise(5, 300);
    h.call(6);
    h.fold(4); // turn, after betting
    h.bet(5, 200);
    h.raise(6, 600);
    h.fold(5); // river, after betting
    const s = h.settlement!;
    expect(s.pots.map((p) => [p.amount, p.eligible])).toEqual([
      [152, [3, 6]],
      [2030, [6]],
    ]);
    expect(s.uncalled).toEqual([{ seat: 6, amount: 400 }]);
    expect(s.pots[0]!.winners.map((w) => [w.seat, w.net])).toEqual([[3, 152]]);
    expect(s.pots[1]!.winners.map((w) => [w.seat, w.net])).toEqual([[6, 2030]]);
    for (const seat of [1, 2, 4, 5]) expect(s.players.find((p) => p.seat === seat)!.won).toBe(0);
    // The river raiser was the last aggressor and shows first; the all-in must show.
    expect(
      h.operations.filter((o) => o.type === 'show').map((o) => [o.seat, (o as { reason: string }).reason]),
    ).toEqual([
      [6, 'last_aggressor'],
      [3, 'all_in_required'],
    ]);
  });

  it('odd chips go to the first winner clockwise from the button', () => {
    const play = (button: number): Hand => {
      const h = quickHand({
        stacks: { 1: 100, 2: 100, 3: 100 },
        button,
        hole: { 1: '2c3d', 2: '4c5d', 3: '2d3c' },
        board: 'AsKsQsJsTs',
      });
      // The small blind folds: 5 chips for two tied hands.
      const sb = button === 3 ? 1 : button === 1 ? 2 : 3;
      while (!h.isComplete) {
        const seat = h.actor!;
        if (seat === sb && h.canFold(seat)) h.fold(seat);
        else if (h.canCheck(seat)) h.check(seat);
        else h.call(seat);
      }
      return h;
    };
    const a = play(3); // SB 1 folds; 2 and 3 tie; seat 2 is first after the button.
    expect(a.settlement!.pots[0]!.winners.map((w) => [w.seat, w.net])).toEqual([
      [2, 3],
      [3, 2],
    ]);
    const b = play(2); // SB 3 folds; 1 and 2 tie; seat 1 is first after the button... but seat 3 folded.
    expect(b.settlement!.pots[0]!.winners.map((w) => [w.seat, w.net])).toEqual([
      [1, 3],
      [2, 2],
    ]);
  });
});

describe('showdown reveals', () => {
  it('with no bet on the river the first live seat after the button shows first; losers muck', () => {
    const h = quickHand({
      stacks: { 1: 100, 2: 100, 3: 100 },
      button: 1,
      hole: { 2: '7c2d', 3: 'AsAd', 1: 'KsKd' },
      board: '9h8h4c3s2s',
    });
    h.call(1);
    h.call(2);
    h.check(3);
    for (let i = 0; i < 3; i++) {
      h.check(2);
      h.check(3);
      h.check(1);
    }
    expect(h.operations.filter((o) => o.type === 'show' || o.type === 'muck')).toEqual([
      { type: 'show', seat: 2, cards: ['7c', '2d'], reason: 'first_to_show' },
      { type: 'show', seat: 3, cards: ['As', 'Ad'], reason: 'winner_required' },
      { type: 'muck', seat: 1, reason: 'auto_muck_loser' },
    ]);
    // Anyone may still show afterwards.
    expect(h.canShow(1)).toBe(true);
    expect(h.show(1)).toEqual({ type: 'show', seat: 1, cards: ['Ks', 'Kd'], reason: 'voluntary' });
    expect(h.canShow(1)).toBe(false);
    const spectator = h.view(null);
    expect(spectator.players.find((p) => p.seat === 1)!.hole).toEqual(['Ks', 'Kd']);
  });

  it('a fold win shows nothing and evaluates nothing', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1 });
    h.raise(1, 10);
    h.fold(2);
    expect(h.operations.some((o) => o.type === 'show' || o.type === 'muck')).toBe(false);
    expect(h.settlement!.showdown).toBe(false);
    expect(h.settlement!.hands).toEqual([]);
    expect(h.settlement!.uncalled).toEqual([{ seat: 1, amount: 8 }]);
    expect(stacksOf(h)).toEqual({ 1: 102, 2: 98 });
    // Hidden cards stay hidden from others.
    expect(h.view(2).players.find((p) => p.seat === 1)!.hole).toEqual([null, null]);
    expect(h.view(1).players.find((p) => p.seat === 1)!.hole).toHaveLength(2);
  });
});

describe('errors', () => {
  it('refuses out-of-turn and illegal actions with typed codes, changing nothing', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100, 3: 100 }, button: 3 });
    const before = JSON.stringify(h.toJSON());
    expectActionError(() => h.call(1), 'not_your_turn');
    expectActionError(() => h.check(3), 'cannot_check');
    expectActionError(() => h.bet(3, 10), 'cannot_bet');
    expectActionError(() => h.raise(3, 2.5), 'amount_invalid');
    expectActionError(() => h.raise(3, 101), 'amount_too_large');
    expectActionError(() => h.fold(9), 'not_in_hand');
    expectActionError(() => h.show(3), 'cannot_show');
    expect(JSON.stringify(h.toJSON())).toBe(before);
    h.fold(3);
    h.fold(1);
    expectActionError(() => h.check(2), 'hand_complete');
  });

  it('folding when checking is free is refused', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1 });
    h.call(1);
    expectActionError(() => h.fold(2), 'cannot_fold');
  });
});

describe('timeouts', () => {
  it('check when free, otherwise fold', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100, 3: 100 }, button: 3 });
    expect(h.timeoutDecision()).toEqual({ type: 'fold' });
    expect(h.applyTimeout()).toEqual({ type: 'fold', seat: 3, timeout: true });
    h.call(1);
    expect(h.timeoutDecision()).toEqual({ type: 'check' });
    expect(h.applyTimeout()).toEqual({ type: 'check', seat: 2, timeout: true });
  });
});

describe('serialization', () => {
  it('restores mid-street on every street and plays forward to the same result', () => {
    const script: [string, number, number?][] = [
      ['raise', 3, 6],
      ['call', 4],
      ['call', 1],
      ['call', 2],
      ['bet', 1, 10],
      ['call', 2],
      ['raise', 3, 40],
      ['fold', 4],
      ['call', 1],
      ['call', 2],
      ['check', 1],
      ['bet', 2, 50],
      ['call', 3],
      ['fold', 1],
      ['check', 2],
      ['bet', 3, 100],
      ['call', 2],
    ];
    const q = {
      stacks: { 1: 500, 2: 500, 3: 500, 4: 500 },
      button: 4,
      hole: { 1: 'AsKs', 2: 'QhQd', 3: 'JcTc', 4: '2d7h' },
      board: 'Qs9c8d2c3h',
    };
    const run = (h: Hand, from: number): void => {
      for (const [type, seat, amount] of script.slice(from)) {
        if (type === 'raise') h.raise(seat, amount!);
        else if (type === 'bet') h.bet(seat, amount!);
        else if (type === 'call') h.call(seat);
        else if (type === 'check') h.check(seat);
        else h.fold(seat);
      }
    };
    const original = quickHand(q);
    run(original, 0);
    const final = JSON.stringify(original.toJSON());
    expect(original.isComplete).toBe(true);
    // Mid-preflop, mid-flop, mid-turn, mid-river.
    for (const cut of [2, 6, 12, 16]) {
      const partial = quickHand(q);
      const stepsTo = (n: number): void => {
        for (const [type, seat, amount] of script.slice(0, n)) {
          if (type === 'raise') partial.raise(seat, amount!);
          else if (type === 'bet') partial.bet(seat, amount!);
          else if (type === 'call') partial.call(seat);
          else if (type === 'check') partial.check(seat);
          else partial.fold(seat);
        }
      };
      stepsTo(cut);
      const street = partial.streetIndex;
      const restored = Hand.fromJSON(JSON.parse(JSON.stringify(partial.toJSON())), refOptions);
      expect(restored.streetIndex).toBe(street);
      expect(restored.state()).toEqual(partial.state());
      run(restored, cut);
      expect(JSON.stringify(restored.toJSON())).toBe(final);
      expect(restored.settlement).toEqual(original.settlement);
    }
  });

  it('refuses a snapshot whose log was tampered with', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1 });
    h.call(1);
    const json = JSON.parse(JSON.stringify(h.toJSON())) as { operations: { type: string; amount?: number }[] };
    const call = json.operations.find((o) => o.type === 'call')!;
    call.amount = 5;
    expect(() => Hand.fromJSON(json, refOptions)).toThrow(expect.objectContaining({ code: 'log_mismatch' }));
    expect(() => Hand.fromJSON({ format: 'nope' }, refOptions)).toThrow(
      expect.objectContaining({ code: 'invalid_format' }),
    );
    const setup = quickSetup({ stacks: { 1: 100, 2: 100 }, button: 1 });
    expect(() => Hand.replay(setup, [{ type: 'check', seat: 2 }], refOptions)).toThrow(
      expect.objectContaining({ code: 'replay_failed' }),
    );
  });
});
