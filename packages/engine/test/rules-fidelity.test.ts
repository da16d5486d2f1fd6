/**
 * Rules fidelity: the hands another rules engine refused or finished differently, worked here by hand,
 * and the properties that keep them from coming back (docs/engine.md, "Betting rules", "House rules"
 * and "Exports").
 */
import { describe, expect, it } from 'vitest';
import type { BetLimit } from '../src/betting/structure.js';
import { ExportError } from '../src/errors.js';
import { toOhh } from '../src/export/ohh.js';
import { parsePhh, replayPhh, toPhh } from '../src/export/phh.js';
import { parseToml } from '../src/export/toml.js';
import { gameIds, getGameRules } from '../src/games/registry.js';
import { Hand } from '../src/hand/hand.js';
import { DEFAULT_HOUSE_RULES, type HouseRules } from '../src/hand/setup.js';
import { simulateHand } from '../src/sim/simulate.js';
import { checkAnswerable, checkHandProperties } from '../src/sim/soak.js';
import { expectCode, playPassively, variantHand, variantSetup, type VariantHandSpec } from './helpers.js';

/** A PHH file cut just before the action another engine refused: what the engine must now refuse. */
function phhUpTo(fields: string, actions: readonly string[]): string {
  return `${fields}\nactions = [\n${actions.map((a) => `  "${a}",`).join('\n')}\n]\n`;
}

describe('no bet or raise that no opponent can answer', () => {
  it('heads-up: facing an all-in, the hero may only call or fold (felt-sim holdem nl 2 players seed 11, hand 13)', () => {
    const text = phhUpTo(
      [
        'variant = "NT"',
        'ante_trimming_status = true',
        'antes = [12, 12]',
        'blinds_or_straddles = [25, 50]',
        'min_bet = 50',
        'starting_stacks = [14893, 3398]',
        'seats = [2, 8]',
      ].join('\n'),
      ['d dh p1 Kc4c', 'd dh p2 4h8s', 'p2 cc', 'p1 cbr 100', 'p2 cc', 'd db 9s3c3s', 'p1 cbr 50', 'p2 cbr 3286'],
    );
    const { hand } = replayPhh(text);
    expect(hand.actor).toBe(2);
    const va = hand.validActions()!;
    expect(va.raise).toBeNull();
    expect(va.bet).toBeNull();
    expect(va.call).toBe(3236);
    expect(va.fold).toBe(true);
    expect(hand.canAct(2, { type: 'all_in' })).toBe(false);
    expectCode(() => hand.raise(2, 14_781), 'no_opponent_can_answer');
    expectCode(() => hand.act(2, { type: 'all_in' }), 'no_opponent_can_answer');
    // The raise to 100 preflop and the all-in raise to 3,286: the refusals recorded nothing.
    expect(hand.operations.filter((op) => op.type === 'raise')).toHaveLength(2);
    hand.call(2);
    expect(hand.isComplete).toBe(true);
    expect(checkHandProperties(hand)).toEqual([]);
  });

  it('6-max: after every opponent is all-in, no raise (seed 11, 6 players, hand 19)', () => {
    const text = phhUpTo(
      [
        'variant = "NT"',
        'ante_trimming_status = false',
        'antes = [0, 0, 0, 0, 0, 0]',
        'blinds_or_straddles = [1, 2, 0, 0, 0, 0]',
        'min_bet = 2',
        'starting_stacks = [749, 36, 43, 8, 1, 453]',
        'seats = [6, 7, 8, 10, 3, 5]',
      ].join('\n'),
      [
        'd dh p1 9h4c',
        'd dh p2 TcAs',
        'd dh p3 Ah7c',
        'd dh p4 JdAc',
        'd dh p5 6d3s',
        'd dh p6 Kh4d',
        'p3 cc',
        'p4 cc',
        'p5 cc',
        'p6 cc',
        'p1 cbr 180',
        'p2 cc',
        'p3 f',
        'p4 f',
        'p6 cc',
        'd db 2hJhTd',
        'p1 cc',
        'p6 cbr 273',
      ],
    );
    const { hand } = replayPhh(text);
    expect(hand.actor).toBe(6);
    const va = hand.validActions()!;
    expect(va.raise).toBeNull();
    expect(va.call).toBe(273);
    expectCode(() => hand.raise(6, 563), 'no_opponent_can_answer');
    expect(hand.canAct(6, { type: 'all_in' })).toBe(false);
  });

  it('6-max: when the only other player left cannot call more, no raise (seed 11, 6 players, hand 21)', () => {
    const text = phhUpTo(
      [
        'variant = "NT"',
        'ante_trimming_status = true',
        'antes = [1, 1, 1, 1, 1, 1]',
        'blinds_or_straddles = [1, 3, 0, 0, 0, 0]',
        'min_bet = 3',
        'starting_stacks = [30, 68, 285, 534, 476, 637]',
        'seats = [1, 2, 3, 6, 8, 9]',
      ].join('\n'),
      [
        'd dh p1 5c3s',
        'd dh p2 Kd9c',
        'd dh p3 3dTh',
        'd dh p4 Kh3h',
        'd dh p5 6c4d',
        'd dh p6 7s4h',
        'p3 cc',
        'p4 f',
        'p5 cc',
        'p6 cc',
        'p1 cc',
        'p2 cc',
        'd db 5h5s4c',
        'p1 cc',
        'p2 cc',
        'p3 cbr 183',
        'p5 cc',
        'p6 cc',
        'p1 cc',
        'p2 cc',
        'd db 9s',
        'p3 cbr 3',
        'p5 cbr 6',
        'p6 cc',
        'p3 cbr 9',
        'p5 cbr 289',
      ],
    );
    const { hand } = replayPhh(text);
    // p6 (seat 9) faces 289; p3 (seat 3) has 98 in this round at most, p5 is all-in.
    expect(hand.actor).toBe(9);
    const p3 = hand.state().players.find((p) => p.seat === 3)!;
    expect(p3.bet + p3.stack).toBe(98);
    const va = hand.validActions()!;
    expect(va.raise).toBeNull();
    expect(va.call).toBe(283);
    expectCode(() => hand.raise(9, 450), 'no_opponent_can_answer');
    // p3, who can still call, is next and may only call or fold as well.
    hand.call(9);
    expect(hand.actor).toBe(3);
    expect(hand.validActions()!.raise).toBeNull();
  });

  it('Stud: facing a bring-in posted all-in, the other player may call or fold but not complete', () => {
    const hand = variantHand({
      game: 'stud',
      stacks: { 1: 3, 2: 50 },
      button: 2,
      stakes: { smallBlind: 0, bigBlind: 0, ante: 1, bringIn: 2, smallBet: 4, bigBet: 8 },
      // A card at a time from seat 1: seat 1's door card 2c is the lowest, so seat 1 brings in.
      deal: 'AsKs AhKh 2cQc',
    });
    expect(hand.actor).toBe(1);
    hand.bringIn(1);
    expect(hand.actor).toBe(2);
    const va = hand.validActions()!;
    expect(va.call).toBe(2);
    expect(va.raise).toBeNull();
    expectCode(() => hand.raise(2, 4), 'no_opponent_can_answer');
    expect(hand.canAct(2, { type: 'all_in' })).toBe(false);
  });

  it('fixed limit: a raise over an all-in that nobody can call more of is refused in every structure', () => {
    for (const limit of ['nl', 'pl', 'fl'] as const) {
      const hand = variantHand({
        game: 'holdem',
        limit,
        stacks: { 1: 500, 2: 3, 3: 500 },
        button: 3,
        stakes: { smallBlind: 1, bigBlind: 2, smallBet: 2, bigBet: 4 },
      });
      // Seat 3 (the button) folds, seat 1 (small blind) calls, seat 2 (big blind) goes all-in to 3.
      hand.fold(3);
      hand.call(1);
      hand.act(2, { type: 'all_in' });
      expect(hand.actor).toBe(1);
      expect(hand.validActions()!.raise, limit).toBeNull();
      expect(hand.canAct(1, { type: 'all_in' })).toBe(false);
    }
  });
});

describe('PHH and OHH keep actions to what happened in the hand', () => {
  const headsUp: VariantHandSpec = {
    game: 'holdem',
    limit: 'nl',
    stacks: { 5: 3349, 6: 3276 },
    button: 5,
    stakes: { smallBlind: 25, bigBlind: 50, bigBlindAnte: 50 },
    // Seat 6 (big blind, first after the button) gets Ac8s, seat 5 (button) JdKs, dealt a card at a time.
    deal: 'AcJd8sKs',
  };

  it('a show after a fold win goes in _shown_after_hand (seed 11 heads-up, hand 32), and replays', () => {
    const hand = variantHand(headsUp);
    hand.raise(5, 160);
    hand.fold(6);
    expect(hand.isComplete).toBe(true);
    hand.show(6);
    const text = toPhh(hand);
    const phh = parsePhh(text);
    expect(phh.actions).toEqual(['d dh p1 Ac8s', 'd dh p2 JdKs', 'p2 cbr 160', 'p1 f']);
    expect(phh.actions.some((a) => a.includes('#'))).toBe(false);
    expect(parseToml(text)._shown_after_hand).toEqual(['p1 sm Ac8s']);
    const { hand: again } = replayPhh(text);
    expect(again.operations).toEqual(hand.operations);
    // A file whose show after the hand does not match the hole cards is refused.
    expect(() => replayPhh(text.replace('p1 sm Ac8s', 'p1 sm AdAh'))).toThrow(ExportError);
  });

  it('OHH: the post-hand show is no Showdown action of the hand', () => {
    const hand = variantHand(headsUp);
    hand.raise(5, 160);
    hand.fold(6);
    hand.show(6);
    const ohh = toOhh(hand).ohh;
    expect(ohh.rounds.map((r) => r.street)).toEqual(['Preflop']);
    expect(ohh._shown_after_hand).toEqual([{ player_id: 1, cards: ['Ac', '8s'] }]);
  });

  it('a show at showdown is still an sm action in the hand', () => {
    const hand = playPassively(variantHand({ ...headsUp, deal: 'AcJd8sKs2c3d4h5s9h' }));
    const phh = parsePhh(toPhh(hand));
    expect(phh.actions.filter((a) => / sm/.test(a))).toEqual(['p1 sm Ac8s', 'p2 sm']);
    expect(parseToml(toPhh(hand))._shown_after_hand).toBeUndefined();
  });
});

describe('Stud Hi-Lo, felt-sim stud8 fl 7 players seed 5, hand 88, worked by hand', () => {
  // Antes 1, bring-in 3, 10/20. p7 brings in; p6 is all-in for 20 on third street; on fourth p4 bets
  // 10, p7 raises all-in to 15 (half a bet: not a full raise), p1 raises to 25 (15 + one small bet).
  // Contributions: p1 206, p2 166, p3 206, p4 86, p5 11, p6 21, p7 36 (732 in all).
  // Pots by level among the players who never folded (p1, p3, p6, p7):
  //   main (to 21 each): 21 × 6 + 11 (p5) = 137, contested by p1, p3, p6, p7;
  //   side 1 (21 to 36): 15 × 5 = 75, contested by p1, p3, p7;
  //   side 2 (36 to 206): 170 × 2 + 130 (p2) + 50 (p4) = 520, contested by p1, p3.
  // High: p7 pair of fives > p3 pair of threes > p1 pair of twos > p6 ace high.
  // Low (8 or better): only p6 (8-7-4-2-A); p1 (2-2-5-6-8), p3 (2-3-4-3) and p7 (3-4-5-5) have none.
  //   main 137: high half 69 (the odd chip goes high) to p7, low half 68 to p6;
  //   side 1, 75: no low among p1, p3, p7, so all of it to the high, p7;
  //   side 2, 520: no low, high to p3.
  // So p6 wins 68, p7 144, p3 520: the finishing stacks below, which are Felt's.
  const text = `variant = "F7S/8"
ante_trimming_status = true
antes = [1, 1, 1, 1, 1, 1, 1]
bring_in = 3
small_bet = 10
big_bet = 20
starting_stacks = [276, 3567, 722, 752, 1440, 21, 36]
actions = [${[
    'd dh p1 2c9d6s',
    'd dh p2 Ac4hTh',
    'd dh p3 2dKcQs',
    'd dh p4 TcJsJc',
    'd dh p5 5cKdAh',
    'd dh p6 Ad9sTd',
    'd dh p7 Ks5h4s',
    'p7 pb',
    'p1 cc',
    'p2 cbr 10',
    'p3 cc',
    'p4 cc',
    'p5 cc',
    'p6 cbr 20',
    'p7 cc',
    'p1 cc',
    'p2 cc',
    'p3 cc',
    'p4 cc',
    'p5 f',
    'd dh p1 5s',
    'd dh p2 Qd',
    'd dh p3 9h',
    'd dh p4 Kh',
    'd dh p6 8c',
    'd dh p7 Qc',
    'p4 cbr 10',
    'p7 cbr 15',
    'p1 cbr 25',
    'p2 cc',
    'p3 cc',
    'p4 cc',
    'd dh p1 Jh',
    'd dh p2 6d',
    'd dh p3 3h',
    'd dh p4 8h',
    'd dh p6 4d',
    'd dh p7 5d',
    'p4 cc',
    'p1 cbr 20',
    'p2 cc',
    'p3 cc',
    'p4 cbr 40',
    'p1 cc',
    'p2 cbr 60',
    'p3 cc',
    'p4 f',
    'p1 cbr 80',
    'p2 cc',
    'p3 cc',
    'd dh p1 2s',
    'd dh p2 9c',
    'd dh p3 4c',
    'd dh p6 7s',
    'd dh p7 Ts',
    'p2 cbr 20',
    'p3 cc',
    'p1 cc',
    'd dh p1 8d',
    'd dh p2 Qh',
    'd dh p3 3d',
    'd dh p6 2h',
    'd dh p7 3c',
    'p2 cbr 20',
    'p3 cbr 40',
    'p1 cbr 60',
    'p2 f',
    'p3 cc',
    'p1 sm 2c9d6s5sJh2s8d',
    'p3 sm 2dKcQs9h3h4c3d',
    'p6 sm Ad9sTd8c4d7s2h',
    'p7 sm Ks5h4sQc5dTs3c',
  ]
    .map((a) => JSON.stringify(a))
    .join(', ')}]
seats = [3, 4, 5, 6, 8, 1, 2]
finishing_stacks = [70, 3401, 1036, 666, 1429, 68, 144]
`;

  it('replays to the finishing stacks, with the pots worked out above', () => {
    const { hand } = replayPhh(text);
    const s = hand.settlement!;
    // Positions p1..p7 sit at seats 3, 4, 5, 6, 8, 1, 2.
    const p = { p1: 3, p3: 5, p6: 1, p7: 2 };
    expect(s.pots.map((pot) => pot.amount)).toEqual([137, 75, 520]);
    expect([...s.pots[0]!.eligible].sort()).toEqual([p.p1, p.p3, p.p6, p.p7].sort());
    const shares = s.pots.map((pot) => pot.winners.map((w) => [w.seat, w.side, w.gross]));
    expect(shares[0]).toEqual([
      [p.p7, 'high', 69],
      [p.p6, 'low', 68],
    ]);
    expect(shares[1]).toEqual([[p.p7, 'high', 75]]);
    expect(shares[2]).toEqual([[p.p3, 'high', 520]]);
    expect(checkHandProperties(hand)).toEqual([]);
  });
});

describe('house rules: each changes a hand built to show it; the defaults are docs/engine.md', () => {
  it('the defaults', () => {
    expect(DEFAULT_HOUSE_RULES).toEqual({
      shortAllInBlind: 'full_blind',
      oddChips: 'one_each',
      studOpenPairBigBet: true,
      limitHalfBetReopens: false,
    });
  });

  const withRules = (spec: VariantHandSpec, houseRules: Partial<HouseRules>): Hand =>
    new Hand({ ...variantSetup(spec), houseRules });

  it('a short all-in big blind: the full blind is the bet to call, or what was posted', () => {
    // Button 1, small blind 2 (25), big blind 3 all-in for 20 of its 50.
    const spec: VariantHandSpec = {
      game: 'holdem',
      limit: 'nl',
      stacks: { 1: 1000, 2: 1000, 3: 20 },
      button: 1,
      stakes: { smallBlind: 25, bigBlind: 50 },
    };
    const full = variantHand(spec);
    expect(full.actor).toBe(1);
    expect(full.validActions()!.call).toBe(50);
    expect(full.validActions()!.raise!.min).toBe(100);
    const posted = withRules(spec, { shortAllInBlind: 'posted' });
    expect(posted.validActions()!.call).toBe(25);
    expect(posted.validActions()!.raise!.min).toBe(75);
    // Everyone calls: the pots differ.
    playPassively(full);
    playPassively(posted);
    expect(full.settlement!.players.find((x) => x.seat === 1)!.contributed).toBe(50);
    expect(posted.settlement!.players.find((x) => x.seat === 1)!.contributed).toBe(25);
  });

  it('odd chips: one each clockwise from the button, or all to the first winner', () => {
    // Four players, ante 1, blinds 1/2; the small blind folds, three split a board royal flush: 11 chips.
    const spec: VariantHandSpec = {
      game: 'holdem',
      limit: 'nl',
      stacks: { 1: 100, 2: 100, 3: 100, 4: 100 },
      button: 4,
      stakes: { smallBlind: 1, bigBlind: 2, ante: 1 },
      // Hole cards a card at a time from seat 1, then the board.
      deal: '2c3c4c5c 2d3d4d5d AsKsQsJsTs',
    };
    const play = (h: Hand): Hand => {
      h.call(3);
      h.call(4);
      h.fold(1);
      return playPassively(h);
    };
    const won = (h: Hand): number[] => [2, 3, 4].map((seat) => h.settlement!.players.find((x) => x.seat === seat)!.won);
    expect(won(play(variantHand(spec)))).toEqual([4, 4, 3]);
    expect(won(play(withRules(spec, { oddChips: 'first_winner' })))).toEqual([5, 3, 3]);
  });

  it('Stud: an open pair on fourth street allows the big bet, unless the room turns it off', () => {
    const spec: VariantHandSpec = {
      game: 'stud',
      stacks: { 1: 200, 2: 200 },
      button: 2,
      stakes: { smallBlind: 0, bigBlind: 0, bringIn: 2, smallBet: 4, bigBet: 8 },
      // Third street a card at a time from seat 1: seat 1 shows a king, seat 2 a deuce (brings in);
      // fourth street pairs seat 1's king.
      deal: 'AhAd QhQd Kc2c Ks3s',
    };
    const play = (h: Hand): Hand => {
      h.bringIn(2);
      h.call(1);
      return h;
    };
    const on = play(variantHand(spec));
    expect(on.actor).toBe(1);
    expect(on.validActions()!.bet!.choices).toEqual([4, 8]);
    const off = play(withRules(spec, { studOpenPairBigBet: false }));
    expect(off.validActions()!.bet).toEqual({ min: 4, max: 4 });
    expectCode(() => off.bet(1, 8), 'amount_too_large');
  });

  it('fixed limit: a half-bet all-in reopens the betting only with the half-bet rule', () => {
    // Flop 10/20 limit: seat 1 bets 10, seat 2 is all-in for 15 (5 over: half a bet), seat 3 calls.
    const spec: VariantHandSpec = {
      game: 'holdem',
      limit: 'fl',
      stacks: { 1: 500, 2: 25, 3: 500 },
      button: 3,
      stakes: { smallBlind: 5, bigBlind: 10, smallBet: 10, bigBet: 20 },
    };
    const play = (h: Hand): Hand => {
      h.call(3);
      h.call(1);
      h.check(2);
      h.bet(1, 10);
      h.act(2, { type: 'all_in' });
      h.call(3);
      return h;
    };
    const plain = play(variantHand(spec));
    expect(plain.actor).toBe(1);
    expect(plain.validActions()!.raise).toBeNull();
    expectCode(() => plain.raise(1, 25), 'raise_not_reopened');
    const halfBet = play(withRules(spec, { limitHalfBetReopens: true }));
    expect(halfBet.validActions()!.raise).toEqual({ min: 25, max: 25 });
    halfBet.raise(1, 25);
    expect(halfBet.actor).toBe(3);
  });

  it('2-7 lowball: A-2-3-4-5 is ace high, not a straight, and loses to 8-7-6-4-3', () => {
    const rules = getGameRules('27td');
    const side = rules.showdown[0]!;
    const wheel = side.evaluate(['Ah', '2d', '3c', '4s', '5h'], []);
    const eightSeven = side.evaluate(['8h', '7d', '6c', '4s', '3h'], []);
    expect(wheel).not.toBeNull();
    expect(eightSeven!).toBeGreaterThan(wheel!);
  });

  it('refuses a house rule it does not know', () => {
    expectCode(
      () =>
        new Hand({
          ...variantSetup({
            game: 'holdem',
            stacks: { 1: 10, 2: 10 },
            button: 1,
            stakes: { smallBlind: 1, bigBlind: 2 },
          }),
          houseRules: { oddChips: 'to_the_house' as never },
        }),
      'invalid_house_rules',
    );
  });
});

/** The settlement without the player ids and names, which a PHH file does not carry. */
function outcome(hand: Hand): unknown {
  const s = hand.settlement!;
  return {
    ...s,
    players: s.players.map(({ seat, finalStack, won, net, rakePaid }) => ({ seat, finalStack, won, net, rakePaid })),
  };
}

describe('property: every game and structure, with and without random house rules', { timeout: 120_000 }, () => {
  const LIMITS: readonly BetLimit[] = ['nl', 'pl', 'fl'];
  const HANDS = 150;
  for (const game of gameIds()) {
    for (const limit of LIMITS) {
      it(`${game} ${limit}: no unanswerable wager; every PHH replays to its finishing stacks`, () => {
        const rules = getGameRules(game);
        const phhCode = rules.phhVariant[limit];
        let replayed = 0;
        let shownAfter = 0;
        for (let i = 0; i < HANDS; i++) {
          const { hand } = simulateHand({
            rules,
            limit,
            players: { min: 2, max: rules.maxSeats },
            rake: i % 3 === 0,
            seed: `fidelity/${game}/${limit}/${i}`,
            randomRules: i % 2 === 1,
          });
          expect(checkAnswerable(hand), `hand ${i}`).toEqual([]);
          if (phhCode === undefined) continue;
          const text = toPhh(hand);
          const phh = parsePhh(text);
          // Only actions of the hand: no show after it, no commentary.
          expect(
            phh.actions.some((a) => a.includes('#') && !a.endsWith('# timeout')),
            `hand ${i}`,
          ).toBe(false);
          if (hand.operations.some((op) => op.type === 'show' && op.reason === 'voluntary')) shownAfter++;
          let again: Hand;
          try {
            again = replayPhh(text).hand;
          } catch (e) {
            // A draw hand that reshuffled its discards needs its deck seed (docs/engine.md, Exports).
            if (e instanceof ExportError && e.code === 'unsupported' && hand.reshuffles().length > 0) continue;
            throw new Error(`hand ${i} (seed fidelity/${game}/${limit}/${i}): ${String(e)}\n${text}`, { cause: e });
          }
          expect(outcome(again), `hand ${i}`).toEqual(outcome(hand));
          replayed++;
        }
        if (phhCode !== undefined) {
          expect(replayed).toBeGreaterThan(HANDS * 0.8);
          expect(shownAfter).toBeGreaterThan(0);
        }
      });
    }
  }
});
