import { describe, expect, it } from 'vitest';
import { playPassively, quickHand, refHoldem, variantHand } from '../../test/helpers.js';
import { gameIds, getGameRules } from '../games/registry.js';
import { simulateHand } from '../sim/simulate.js';
import { ohhFile, toOhh } from './ohh.js';

describe('OHH export', { timeout: 60_000 }, () => {
  it('writes rounds, posts, raise increments, showdown and pots', () => {
    const h = quickHand({
      stacks: { 1: 200, 4: 300, 6: 250 },
      button: 6,
      hole: { 1: 'AsKs', 4: 'QdQc', 6: '7h2c' },
      board: 'Kd9d4c8h3s',
      rake: { percent: 5, cap: 0 },
    });
    h.fold(6);
    h.raise(1, 8);
    h.raise(4, 20);
    h.call(1);
    h.bet(1, 10);
    h.call(4);
    h.check(1);
    h.check(4);
    h.check(1);
    h.check(4);
    const { ohh } = toOhh(h, { heroSeat: 4 });
    expect(ohh).toMatchObject({
      spec_version: '1.4.7',
      game_number: h.handId,
      game_type: 'Holdem',
      bet_limit: { bet_type: 'NL', bet_cap: 0 },
      dealer_seat: 6,
      small_blind_amount: 1,
      big_blind_amount: 2,
      hero_player_id: 1,
      currency: 'XPM',
    });
    expect(ohh.players.map((p) => [p.id, p.seat, p.starting_stack])).toEqual([
      [0, 1, 200],
      [1, 4, 300],
      [2, 6, 250],
    ]);
    expect(ohh.rounds.map((r) => [r.id, r.street, r.cards ?? null])).toEqual([
      [0, 'Preflop', null],
      [1, 'Flop', ['Kd', '9d', '4c']],
      [2, 'Turn', ['8h']],
      [3, 'River', ['3s']],
      [4, 'Showdown', null],
    ]);
    const pre = ohh.rounds[0]!.actions.map((a) => [a.player_id, a.action, a.amount ?? null]);
    expect(pre).toEqual([
      [0, 'Post SB', 1],
      [1, 'Post BB', 2],
      [0, 'Dealt Cards', null],
      [1, 'Dealt Cards', null],
      [2, 'Dealt Cards', null],
      [2, 'Fold', null],
      // A raise's amount is what the action adds: 7 on top of the small blind, then 18 on the big blind.
      [0, 'Raise', 7],
      [1, 'Raise', 18],
      [0, 'Call', 12],
    ]);
    expect(ohh.rounds[1]!.actions.map((a) => a.action)).toEqual(['Bet', 'Call']);
    expect(ohh.rounds[4]!.actions).toEqual([
      { action_number: 16, player_id: 0, action: 'Shows Cards', cards: ['As', 'Ks'] },
      { action_number: 17, player_id: 1, action: 'Mucks Cards' },
    ]);
    const numbers = ohh.rounds.flatMap((r) => r.actions.map((a) => a.action_number));
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    // Pot 60 raked 5% = 3: the winner gets 57.
    expect(ohh.pots).toEqual([
      { number: 0, amount: 60, rake: 3, jackpot: 0, player_wins: [{ player_id: 0, win_amount: 57 }] },
    ]);
  });

  it('balances on simulated hands of every game: pots pay what the actions put in, less returns', () => {
    const hands = [];
    const games = [refHoldem, ...gameIds().map(getGameRules)];
    for (let i = 0; i < 200; i++) {
      const rules = games[i % games.length]!;
      const { hand } = simulateHand({
        rules,
        limit: i % 3 === 0 ? 'pl' : rules.defaultLimit,
        players: { min: 2, max: rules.maxSeats },
        rake: true,
        seed: `ohh-${i}`,
      });
      const doc = toOhh(hand);
      hands.push(doc);
      expect(doc.ohh.game_type).toBe(rules.ohhGameType);
      expect(doc.ohh._felt_game).toBe(rules.id);
      const put = doc.ohh.rounds
        .flatMap((r) => r.actions)
        .reduce((a, x) => a + (x.action === 'Dealt Cards' ? 0 : (x.amount ?? 0)), 0);
      const returned = hand.settlement!.uncalled.reduce((a, u) => a + u.amount, 0);
      const pots = doc.ohh.pots.reduce((a, p) => a + p.amount, 0);
      expect(pots).toBe(put - returned);
      for (const p of doc.ohh.pots) {
        expect(p.player_wins.reduce((a, w) => a + w.win_amount, 0) + p.rake).toBe(p.amount);
      }
    }
    const file = ohhFile(hands);
    const parsed = file
      .trim()
      .split('\n\n')
      .map((chunk) => JSON.parse(chunk) as unknown);
    expect(parsed).toHaveLength(200);
  });

  it('writes Stud streets, the bring-in, per-card visibility, and the PHH fields OHH lacks', () => {
    const h = playPassively(
      variantHand({
        game: 'razz',
        stacks: { 1: 100, 2: 100 },
        button: 2,
        stakes: { smallBlind: 0, bigBlind: 0, ante: 1, bringIn: 1, smallBet: 2, bigBet: 4 },
      }),
    );
    const { ohh } = toOhh(h);
    expect(ohh).toMatchObject({ game_type: 'Stud', _felt_game: 'razz', _variant: 'FR', _bring_in: 1, _small_bet: 2 });
    expect(ohh.rounds.map((r) => r.street)).toEqual([
      'Third Street',
      'Fourth Street',
      'Fifth Street',
      'Sixth Street',
      'Seventh Street',
      'Showdown',
    ]);
    const third = ohh.rounds[0]!.actions;
    expect(third.find((a) => a.action === 'Dealt Cards')!._visibility).toEqual(['down', 'down', 'up']);
    expect(third.find((a) => a.action === 'Post Bring In')).toMatchObject({ amount: 1 });
    expect(ohh.rounds[4]!.actions.find((a) => a.action === 'Dealt Cards')!._visibility).toBeUndefined();
  });

  it('writes draws as Discard and Stands Pat in the draw rounds', () => {
    const h = variantHand({
      game: '27td',
      stacks: { 1: 100, 2: 100, 3: 100 },
      button: 3,
      stakes: { smallBlind: 1, bigBlind: 2 },
    });
    h.call(3);
    h.call(1);
    h.check(2);
    h.standPat(1);
    h.discard(2, [h.holeCards(2)[0]!]);
    playPassively(h);
    const { ohh } = toOhh(h);
    expect(ohh.game_type).toBe('Draw');
    expect(ohh.rounds.map((r) => r.street).slice(0, 4)).toEqual([
      'Pre-Draw',
      'First Draw',
      'Second Draw',
      'Third Draw',
    ]);
    expect(ohh.rounds[1]!.actions.slice(0, 3).map((a) => [a.player_id, a.action, a.cards?.length ?? 0])).toEqual([
      [0, 'Stands Pat', 0],
      [1, 'Discard', 1],
      [1, 'Dealt Cards', 1],
    ]);
  });
});
