import { describe, expect, it } from 'vitest';
import { getGameRules, SeededRng, type Card, type HandState, type ValidActions } from '@felt/engine';
import { decideBotAction, estimateEquity, type BotView } from './bot-brain.js';

function player(seat: number, hole: (Card | null)[], extra: Partial<HandState['players'][number]> = {}) {
  return {
    seat,
    id: `p${seat}`,
    stack: 100,
    bet: 0,
    contributed: 0,
    folded: false,
    allIn: false,
    hole,
    visibility: hole.map(() => 'down' as const),
    shown: false,
    mucked: false,
    ...extra,
  };
}

function state(game: string, players: HandState['players'], board: Card[] = []): HandState {
  return {
    handId: 'h',
    game,
    limit: 'nl',
    phase: 'betting',
    street: board.length === 0 ? 0 : board.length - 2,
    streetName: 'x',
    betUnit: 'small',
    button: 1,
    actor: 1,
    board,
    currentBet: 0,
    pots: [],
    players,
  };
}

const facing = (call: number, pot: number): ValidActions => ({
  seat: 1,
  fold: true,
  check: false,
  call,
  bet: null,
  raise: { min: call * 2, max: 100 },
  bringIn: null,
  discard: null,
  allInTo: 100,
  currentBet: call,
  playerBet: 0,
  stack: 100,
  pot,
});

const free: ValidActions = {
  ...facing(0, 6),
  fold: false,
  check: true,
  call: null,
  raise: null,
  bet: { min: 2, max: 100 },
};

function view(hole: Card[], valid: ValidActions, game = 'holdem', board: Card[] = []): BotView {
  return {
    rules: getGameRules(game),
    state: state(game, [player(1, hole), player(2, [null, null])], board),
    seat: 1,
    valid,
  };
}

describe('bot equity', () => {
  it('knows aces from seven-deuce, and sees only its own cards', () => {
    const aces = estimateEquity(view(['As', 'Ah'], free), new SeededRng('e1'), 400);
    const junk = estimateEquity(view(['7c', '2d'], free), new SeededRng('e1'), 400);
    expect(aces).toBeGreaterThan(0.78);
    expect(junk).toBeLessThan(0.42);
    // The nuts on the river: a royal flush cannot lose.
    const royal = estimateEquity(
      view(['As', 'Ks'], free, 'holdem', ['Qs', 'Js', 'Ts', '2d', '3c']),
      new SeededRng('e2'),
      100,
    );
    expect(royal).toBe(1);
  });

  it('uses the game’s own evaluators: Omaha must play two hole cards', () => {
    // Four aces in Omaha is one pair of aces at best (two of them play); still ahead of junk.
    const v: BotView = {
      rules: getGameRules('omaha'),
      state: state('omaha', [player(1, ['As', 'Ah', 'Ad', 'Ac']), player(2, [null, null, null, null])]),
      seat: 1,
      valid: free,
    };
    const e = estimateEquity(v, new SeededRng('o'), 300);
    expect(e).toBeGreaterThan(0.3);
    expect(e).toBeLessThan(0.8);
  });
});

describe('bot decisions', () => {
  it('folds junk to a big bet, calls or raises aces, and is deterministic under a seeded RNG', () => {
    const big = facing(60, 80);
    expect(decideBotAction(view(['7c', '2d'], big), new SeededRng('d1'))).toEqual({ type: 'fold' });
    const withAces = decideBotAction(view(['As', 'Ah'], big), new SeededRng('d1'));
    expect(['call', 'raise']).toContain(withAces.type);
    for (const seed of ['a', 'b', 'c']) {
      expect(decideBotAction(view(['Td', '9d'], facing(4, 10)), new SeededRng(seed))).toEqual(
        decideBotAction(view(['Td', '9d'], facing(4, 10)), new SeededRng(seed)),
      );
    }
  });

  it('every decision it makes is within the valid actions', () => {
    const rng = new SeededRng('valid');
    for (let i = 0; i < 50; i++) {
      const a = decideBotAction(view(['Kd', 'Qd'], i % 2 === 0 ? free : facing(10, 20)), rng);
      if (a.type === 'bet') expect(a.to).toBeGreaterThanOrEqual(2);
      if (a.type === 'raise') expect(a.to).toBeGreaterThanOrEqual(20);
      if (a.type === 'fold') expect(i % 2).toBe(1);
      expect(a.type).not.toBe('check_or_call');
    }
  });

  it('draws to a low in 2-7: throws away pairs and high cards, at most what it may', () => {
    const v: BotView = {
      rules: getGameRules('27td'),
      state: state('27td', [player(1, ['2c', '7d', '7h', 'Kc', '4s']), player(2, [null, null, null, null, null])]),
      seat: 1,
      valid: { ...free, discard: { max: 5 }, bet: null },
    };
    const a = decideBotAction(v, new SeededRng('draw'));
    expect(a.type).toBe('discard');
    if (a.type === 'discard') expect([...a.cards].sort()).toEqual(['7h', 'Kc'].sort());
  });

  it('posts the Stud bring-in with a weak hand', () => {
    const rules = getGameRules('stud');
    const v: BotView = {
      rules,
      state: state('stud', [
        player(1, ['2c', '7d', '3h'], { visibility: ['down', 'down', 'up'] }),
        player(2, [null, null, 'Ks'], { visibility: ['down', 'down', 'up'] }),
      ]),
      seat: 1,
      valid: { ...facing(0, 2), fold: false, call: null, raise: null, bringIn: 1, bet: { min: 2, max: 2 } },
    };
    expect(decideBotAction(v, new SeededRng('stud'))).toEqual({ type: 'bring_in' });
  });
});
