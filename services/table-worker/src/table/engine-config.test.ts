import { describe, expect, it } from 'vitest';
import { Hand, Table, standardForcedBets, getGameRules, initialDeck } from '@felt/engine';
import { parseRoomConfig } from '@felt/protocol';
import { engineTableConfig } from './engine-config.js';
import { validActionsView } from './valid-actions.js';

describe('engineTableConfig: the room rules reach every hand', () => {
  it('defaults: no house rule or showdown option differs from the engine default; the raise cap is the structure’s', () => {
    const cfg = engineTableConfig(parseRoomConfig({}), 't');
    expect(cfg.houseRules).toEqual({
      shortAllInBlind: 'full_blind',
      oddChips: 'one_each',
      studOpenPairBigBet: true,
      limitHalfBetReopens: false,
    });
    expect(cfg.showdown).toEqual({
      allowMuck: true,
      showAllHands: false,
      autoMuck: true,
      lastAggressorShowsFirst: true,
      allInMustShow: true,
      contestedWinnerMustShow: true,
    });
    expect('raiseCap' in cfg.stakes).toBe(false);
  });

  it('house rules, showdown options and the raise cap of the room go into each hand setup', () => {
    const config = parseRoomConfig({
      game: 'horse',
      rules: {
        oddChips: 'first_winner',
        shortAllInBlind: 'posted',
        studOpenPairBigBet: false,
        limitHalfBetReopens: true,
        raiseCap: 'none',
        showdown: { showAllHands: true, lastAggressorShowsFirst: false },
      },
    });
    const cfg = engineTableConfig(config, 't');
    const table = new Table(cfg);
    table.sit(1, 'a', 500);
    table.sit(2, 'b', 500);
    const setup = table.prepareHand({ handId: 'h1', deck: initialDeck('standard52') });
    expect(setup.houseRules).toEqual({
      shortAllInBlind: 'posted',
      oddChips: 'first_winner',
      studOpenPairBigBet: false,
      limitHalfBetReopens: true,
    });
    expect(setup.showdown).toMatchObject({ showAllHands: true, lastAggressorShowsFirst: false });
    expect(setup.stakes.raiseCap).toBeNull();
    for (const entry of cfg.rotation!.order) expect(entry.stakes?.raiseCap).toBeNull();
    expect(new Hand(setup).structure.raiseCap).toBeNull();
  });

  it('a numeric raise cap is the engine’s', () => {
    const cfg = engineTableConfig(parseRoomConfig({ rules: { raiseCap: 3 } }), 't');
    expect(cfg.stakes.raiseCap).toBe(3);
  });
});

describe('validActionsView: nothing beyond a call when no opponent can answer', () => {
  it('facing an all-in heads-up: call or fold, no raise, no all_in', () => {
    const rules = getGameRules('holdem');
    const stakes = { smallBlind: 1, bigBlind: 2 };
    const hand = new Hand({
      handId: 'h',
      game: 'holdem',
      limit: 'nl',
      stakes,
      button: 1,
      players: [
        { seat: 1, id: 'a', stack: 500 },
        { seat: 2, id: 'b', stack: 40 },
      ],
      forcedBets: standardForcedBets(rules, stakes, [1, 2], 1),
      deck: initialDeck('standard52'),
    });
    hand.raise(1, 6);
    hand.act(2, { type: 'all_in' });
    const view = validActionsView(hand, 1)!;
    expect(view).toMatchObject({ fold: true, call: 34, raise: null, bet: null, all_in: null });
  });
});
