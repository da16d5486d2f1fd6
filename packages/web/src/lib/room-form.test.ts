import { GAME_TYPES, parseRoomConfig } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import {
  BLIND_DEALING_GAMES,
  checkRoomForm,
  EMPTY_ROOM_FORM,
  gamesFor,
  hasFixedLimit,
  hasStudFixedLimit,
  lockedByDealing,
  roomIssueText,
  setDealing,
  stakeFields,
  toConfigInput,
} from './room-form.js';

describe('room form', () => {
  it('sends only what was set, so the lobby fills its own defaults', () => {
    const input = toConfigInput(EMPTY_ROOM_FORM);
    expect(input).toEqual({
      game: 'holdem',
      rake: { noFlopNoDrop: true },
      startHand: { autoStart: true, hostMayForceStart: true },
      botFill: { mode: 'off' },
      listed: true,
    });
    expect(parseRoomConfig(input).stakes.bigBlind).toBe(2);
  });

  it('builds a full config that the shared parser accepts', () => {
    const form = {
      ...EMPTY_ROOM_FORM,
      game: 'omaha8' as const,
      limit: 'pl' as const,
      stakes: { smallBlind: '5', bigBlind: '10' },
      seats: '9',
      buyInMin: '400',
      buyInMax: '2000',
      actionSeconds: '20',
      timeBankSeconds: '30',
      warningSeconds: '5',
      refillSeconds: '4',
      refillEveryHands: '12',
      rakePercent: '5',
      rakeCap: '30',
      botFill: true,
      botTarget: '4',
      listed: false,
      sitBuyIn: '1000',
    };
    const check = checkRoomForm(form);
    expect([...check.issues]).toEqual([]);
    expect(check.config).toMatchObject({
      game: 'omaha8',
      limit: 'pl',
      seats: 9,
      buyIn: { min: 400, max: 2000 },
      clock: { actionSeconds: 20, timeBankSeconds: 30, warningSeconds: 5, refillSeconds: 4, refillEveryHands: 12 },
      rake: { percent: 5, cap: 30 },
      botFill: { mode: 'fill', targetPlayers: 4 },
      listed: false,
    });
    expect(check.sitBuyIn).toBe(1000);
  });

  it('a practice room asks for no rake and sends none, whatever was typed', () => {
    const form = { ...EMPTY_ROOM_FORM, practiceChips: true, rakePercent: '5', rakeCap: '30' };
    const input = toConfigInput(form);
    expect(input).toMatchObject({ practiceChips: true });
    expect(input).not.toHaveProperty('rake');
    const check = checkRoomForm(form);
    expect([...check.issues]).toEqual([]);
    expect(check.config).toMatchObject({ practiceChips: true, rake: { percent: 0 } });
    // Unticked, the box sends nothing: a real-chip room as before.
    expect(toConfigInput({ ...form, practiceChips: false })).not.toHaveProperty('practiceChips');
  });

  it("reports the parser's messages by field, and a buy-in outside the range", () => {
    const bad = checkRoomForm({ ...EMPTY_ROOM_FORM, stakes: { smallBlind: '5', bigBlind: '2' }, sitBuyIn: '1' });
    expect(bad.config).toBeNull();
    expect(bad.issues.get('stakes.smallBlind')).toMatch(/cannot exceed the big blind/);
    const range = checkRoomForm({ ...EMPTY_ROOM_FORM, sitBuyIn: '5' });
    expect(range.issues.get('sit.buy_in')).toBe('choose a buy-in between 80 and 200');
    const junk = checkRoomForm({ ...EMPTY_ROOM_FORM, seats: '1e1' });
    expect(junk.issues.has('seats')).toBe(true);
    // The lobby's rules for a new room too: bots leave a seat for players.
    const full = checkRoomForm({ ...EMPTY_ROOM_FORM, seats: '6', botFill: true, botTarget: '6' });
    expect(full.issues.get('botFill.targetPlayers')).toBe(
      'leave a seat for players to join: bots fill at most 5 of the 6 seats',
    );
  });

  it('lists the stakes each game needs', () => {
    expect(stakeFields('holdem', 'nl')).toEqual(['smallBlind', 'bigBlind', 'ante', 'bigBlindAnte']);
    expect(stakeFields('holdem', 'fl')).toContain('bigBet');
    expect(stakeFields('razz', '')).toEqual(['ante', 'bringIn', 'smallBet', 'bigBet']);
    expect(stakeFields('shortdeck', '')).toEqual(['bigBlind', 'buttonBlind', 'ante']);
    expect(stakeFields('horse', '')).toContain('bringIn');
  });

  it('builds a valid config for every game with its defaults', () => {
    for (const game of [
      'holdem',
      'omaha',
      'omaha5',
      'omaha8',
      'shortdeck',
      'stud',
      'stud8',
      'razz',
      '27td',
      'horse',
      '8game',
    ] as const) {
      const check = checkRoomForm({ ...EMPTY_ROOM_FORM, game });
      expect([...check.issues], game).toEqual([]);
      expect(check.sitBuyIn).toBe(check.config!.buyIn.max);
    }
  });

  it('sends the house rules and showdown options that differ, and only the rules the games use', () => {
    const form = {
      ...EMPTY_ROOM_FORM,
      game: 'stud8' as const,
      oddChips: 'first_winner' as const,
      raiseCap: 'none',
      studOpenPairBigBet: false,
      limitHalfBetReopens: true,
      showdown: { ...EMPTY_ROOM_FORM.showdown, autoMuck: false },
    };
    expect(toConfigInput(form).rules).toEqual({
      oddChips: 'first_winner',
      raiseCap: 'none',
      studOpenPairBigBet: false,
      limitHalfBetReopens: true,
      showdown: { autoMuck: false },
    });
    const check = checkRoomForm(form);
    expect([...check.issues]).toEqual([]);
    expect(check.config!.rules).toMatchObject({ oddChips: 'first_winner', studOpenPairBigBet: false });
    // Switched to no-limit Hold'em, the Stud and fixed-limit boxes no longer apply and are not sent.
    const holdem = { ...form, game: 'holdem' as const };
    expect(toConfigInput(holdem).rules).toEqual({
      oddChips: 'first_winner',
      raiseCap: 'none',
      showdown: { autoMuck: false },
    });
    expect([...checkRoomForm(holdem).issues]).toEqual([]);
    expect(hasStudFixedLimit('horse', '')).toBe(true);
    expect(hasStudFixedLimit('razz', '')).toBe(false);
    expect(hasFixedLimit('holdem', '')).toBe(false);
    expect(hasFixedLimit('holdem', 'fl')).toBe(true);
  });

  it('sends standard dealing as nothing (the lobby’s default), and engine-blind when chosen', () => {
    expect(toConfigInput(EMPTY_ROOM_FORM)).not.toHaveProperty('dealing');
    expect(checkRoomForm(EMPTY_ROOM_FORM).config!.dealing).toBe('standard');
    const blind = setDealing(EMPTY_ROOM_FORM, 'engine_blind');
    const input = toConfigInput(blind);
    expect(input).toMatchObject({ dealing: 'engine_blind', practiceChips: true, botFill: { mode: 'off' } });
    expect(input).not.toHaveProperty('rake');
    const check = checkRoomForm(blind);
    expect([...check.issues]).toEqual([]);
    expect(check.config).toMatchObject({ dealing: 'engine_blind', practiceChips: true, botFill: { mode: 'off' } });
  });

  it('engine-blind ticks practice chips, unticks bot fill and holds both; standard again leaves them', () => {
    const before = { ...EMPTY_ROOM_FORM, botFill: true, botTarget: '4', game: 'omaha8' as const, limit: 'pl' as const };
    const blind = setDealing(before, 'engine_blind');
    expect(blind).toMatchObject({ dealing: 'engine_blind', practiceChips: true, botFill: false });
    // A game it can deal is kept, with its limit and stakes.
    expect(blind).toMatchObject({ game: 'omaha8', limit: 'pl' });
    expect(lockedByDealing(blind)).toEqual({ practiceChips: true, botFill: true });
    const standard = setDealing(blind, 'standard');
    expect(standard).toMatchObject({ dealing: 'standard', practiceChips: true, botFill: false });
    expect(lockedByDealing(standard)).toEqual({ practiceChips: false, botFill: false });
    expect(lockedByDealing(EMPTY_ROOM_FORM)).toEqual({ practiceChips: false, botFill: false });
  });

  it('engine-blind offers only the games it deals, and moves another game to Hold’em', () => {
    expect(BLIND_DEALING_GAMES).toEqual(['holdem', 'omaha', 'omaha5', 'omaha8', 'shortdeck']);
    expect(gamesFor('engine_blind')).toBe(BLIND_DEALING_GAMES);
    expect(gamesFor('standard')).toEqual(GAME_TYPES);
    for (const game of GAME_TYPES) {
      const form = setDealing({ ...EMPTY_ROOM_FORM, game, stakes: { ante: '5' } }, 'engine_blind');
      const offered = BLIND_DEALING_GAMES.includes(game);
      expect(form.game, game).toBe(offered ? game : 'holdem');
      // The stakes typed for another game do not follow it to Hold'em.
      expect(form.stakes, game).toEqual(offered ? { ante: '5' } : {});
      if (offered) continue;
      expect(form.limit, game).toBe('');
      expect([...checkRoomForm(form).issues], game).toEqual([]);
    }
  });

  it('reports the parser’s engine-blind issues by field, in the page’s words, for a form built by hand', () => {
    const blind = { ...EMPTY_ROOM_FORM, dealing: 'engine_blind' as const };
    expect(checkRoomForm(blind).issues.get('dealing')).toBe('engine-blind dealing is for practice chips only');
    const bots = checkRoomForm({ ...blind, practiceChips: true, botFill: true });
    expect(bots.config).toBeNull();
    expect(bots.issues.get('botFill.mode')).toBe('engine-blind dealing needs every seat a person: no bot fill');
    const stud = checkRoomForm({ ...blind, practiceChips: true, game: 'stud' });
    expect(stud.issues.get('dealing')).toBe(
      "engine-blind dealing plays Hold'em, Omaha, 5-Card Omaha, Omaha Hi-Lo, Short Deck, not Seven Card Stud",
    );
    expect(roomIssueText('engine-blind dealing plays holdem, omaha, not horse')).toBe(
      "engine-blind dealing plays Hold'em, Omaha, not HORSE",
    );
  });
});
