import { LobbyApiError } from '@felt/client';
import { STRUCTURE_PRESETS } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../i18n/i18n.js';
import {
  ADD_ON_CONFIG,
  ALICE,
  tournamentDetail,
  tournamentSummary,
  TOURNAMENT_CONFIG,
} from '../test-support/fixtures.js';
import { dateTimeText } from './format.js';
import {
  addOnBuyText,
  addOnOffer,
  addOnRefusal,
  addOnRuleText,
  addOnUntilText,
  anteText,
  blindsText,
  entrantsText,
  entryMarkText,
  formatText,
  levelLengthText,
  playerStatusText,
  priceText,
  reEntryErrorText,
  reEntryText,
  Registration,
  registration,
  startText,
  statusText,
  tournamentStructure,
  type StructureRow,
} from './tournaments.js';

describe('the list’s words', () => {
  it('names every format and status', () => {
    expect(formatText('sit_and_go')).toBe('Sit-and-go');
    expect(formatText('scheduled')).toBe('Scheduled');
    expect(['registering', 'running', 'finished', 'cancelled'].map((s) => statusText(s as never))).toEqual([
      'Registering',
      'Running',
      'Finished',
      'Cancelled',
    ]);
  });

  it('prices an entry as buy-in + fee, the buy-in alone without a fee, and a freeroll as such', () => {
    expect(priceText(100, 10)).toBe('100 + 10');
    expect(priceText(1_500, 0)).toBe('1,500');
    expect(priceText(0, 0)).toBe('Freeroll');
    // A fee with no buy-in is still a price (all of it to the house).
    expect(priceText(0, 5)).toBe('0 + 5');
  });

  it('counts the field against its most, and starts at the scheduled time or when full', () => {
    expect(entrantsText(tournamentSummary({ entrants: 3, max_entrants: 1_000 }))).toBe('3/1,000');
    const at = '2026-12-06T18:00:00.000Z';
    expect(startText(tournamentSummary({ starts_at: at }))).toBe(dateTimeText(at));
    expect(startText(tournamentSummary({ format: 'sit_and_go', starts_at: null }))).toBe('When full');
  });
});

describe('tournamentStructure', () => {
  it('lists the levels with a break after every two, none after the last', () => {
    const view = tournamentStructure(tournamentDetail().config)!;
    expect(view.length).toEqual({ unit: 'minutes', value: 10 });
    expect(view.startingStack).toBe(10_000);
    const level = (n: number, sb: number, bb: number, ante = 0, bbAnte = 0): StructureRow => ({
      kind: 'level',
      level: n,
      smallBlind: sb,
      bigBlind: bb,
      ante,
      bigBlindAnte: bbAnte,
    });
    expect(view.rows).toEqual([
      level(1, 25, 50),
      level(2, 50, 100, 10),
      { kind: 'break', minutes: 5 },
      level(3, 100, 200, 0, 200),
      level(4, 200, 400),
    ]);
  });

  it('resolves a config that names only a preset as the lobby does: the preset’s levels, length and stack', () => {
    const turbo = STRUCTURE_PRESETS.turbo;
    const view = tournamentStructure({ name: 'Turbo', format: 'sit_and_go', buyIn: 50 })!;
    expect(view.startingStack).toBe(turbo.startingStack);
    expect(view.length).toEqual(turbo.structure.levelLength);
    // The turbo preset has no breaks: every row is a level, in order.
    expect(view.rows.map((r) => (r.kind === 'level' ? r.bigBlind : null))).toEqual(
      turbo.structure.levels.map((l) => l.bigBlind),
    );
  });

  it('levels measured in hands have no breaks', () => {
    const view = tournamentStructure({
      ...TOURNAMENT_CONFIG,
      structure: { levels: [{ bigBlind: 20 }, { bigBlind: 40 }], levelLength: { unit: 'hands', value: 12 } },
    })!;
    expect(view.rows.every((r) => r.kind === 'level')).toBe(true);
    expect(levelLengthText(view.length)).toBe('12 hands');
  });

  it('carries the re-entry rule when the config has one, and says it', () => {
    expect(tournamentStructure(tournamentDetail().config)!.reEntry).toBeNull();
    expect(reEntryText(null)).toBeNull();
    const view = tournamentStructure({
      ...TOURNAMENT_CONFIG,
      lateRegistrationLevels: 3,
      reEntry: { max: 2, untilLevel: 3 },
    })!;
    expect(view.reEntry).toEqual({ max: 2, untilLevel: 3 });
    expect(reEntryText(view.reEntry)).toBe('Up to 2 re-entries, until the end of level 3');
    expect(reEntryText({ max: 1, untilLevel: 2 })).toBe('Up to 1 re-entry, until the end of level 2');
  });

  it('carries the add-on when the config has one, and says it among the facts', () => {
    expect(tournamentStructure(tournamentDetail().config)!.addOn).toBeNull();
    expect(addOnRuleText(null)).toBeNull();
    const view = tournamentStructure(ADD_ON_CONFIG)!;
    expect(view.addOn).toEqual({ chips: 5_000, cost: 100 });
    expect(addOnRuleText(view.addOn)).toBe('5,000 chips for 100, at the first break');
    expect(addOnRuleText({ chips: 2_000, cost: 0 })).toBe('2,000 chips, free, at the first break');
  });

  it('is null for a config that does not parse', () => {
    expect(tournamentStructure({ ...TOURNAMENT_CONFIG, buyIn: -1 })).toBeNull();
  });
});

describe('a level’s cells', () => {
  it('blinds, ante (every player’s, the big blind’s for the table, or none) and length', () => {
    expect(blindsText({ smallBlind: 500, bigBlind: 1_000 })).toBe('500/1,000');
    expect(anteText({ ante: 25, bigBlindAnte: 0 })).toBe('25');
    expect(anteText({ ante: 0, bigBlindAnte: 1_000 })).toBe('1,000 (big blind)');
    expect(anteText({ ante: 0, bigBlindAnte: 0 })).toBe('\u2014');
    expect(levelLengthText({ unit: 'minutes', value: 1 })).toBe('1 minute');
    expect(levelLengthText({ unit: 'minutes', value: 15 })).toBe('15 minutes');
    expect(levelLengthText({ unit: 'hands', value: 1 })).toBe('1 hand');
  });
});

describe('statusText', () => {
  it('says when a running tournament still takes late registrations', () => {
    expect(statusText('running')).toBe('Running');
    expect(statusText('running', true)).toBe('Running, late registration open');
    expect(statusText('registering', true)).toBe('Registering');
  });

  it('says when it takes re-entries too, and only while it runs', () => {
    expect(statusText('running', true, true)).toBe('Running, late registration and re-entry open');
    expect(statusText('running', true, false)).toBe('Running, late registration open');
    expect(statusText('finished', false, true)).toBe('Finished');
  });
});

describe('registration', () => {
  it('Register while a place is free, Unregister once registered, full or closed otherwise', () => {
    const d = (over: Parameters<typeof tournamentDetail>[0]) => registration(tournamentDetail(over));
    expect(d({ registered: false })).toBe(Registration.REGISTER);
    expect(d({ registered: true })).toBe(Registration.UNREGISTER);
    expect(d({ registered: false, entrants: 100, max_entrants: 100 })).toBe(Registration.FULL);
    // Registered in a full field: still Unregister.
    expect(d({ registered: true, entrants: 100, max_entrants: 100 })).toBe(Registration.UNREGISTER);
    for (const status of ['running', 'finished', 'cancelled'] as const) {
      expect(d({ status, registered: false })).toBe(Registration.CLOSED);
      expect(d({ status, registered: true })).toBe(Registration.CLOSED);
    }
    // Late registration: a running tournament still takes entries, and an entry cannot be taken back.
    expect(d({ status: 'running', late_registration_open: true, registered: false })).toBe(Registration.REGISTER);
    expect(d({ status: 'running', late_registration_open: true, registered: true })).toBe(Registration.CLOSED);
    expect(
      d({ status: 'running', late_registration_open: true, registered: false, entrants: 100, max_entrants: 100 }),
    ).toBe(Registration.FULL);
    // Out already: no second entry.
    const out = tournamentDetail({ status: 'running', late_registration_open: true, registered: false });
    const me = out.players[0]!.user_id;
    expect(registration({ ...out, players: [{ ...out.players[0]!, status: 'finished', place: 9 }] }, me)).toBe(
      Registration.CLOSED,
    );
    expect(registration(out, 'someone-else')).toBe(Registration.REGISTER);
  });

  it('Re-enter whenever the lobby says the player may buy in again, and only then', () => {
    const me = ALICE;
    const busted = tournamentDetail({
      status: 'running',
      late_registration_open: true,
      re_entry_open: true,
      registered: false,
      players: [
        { ...tournamentDetail().players[0]!, status: 'busted' },
        ...tournamentDetail()
          .players.slice(1)
          .map((p) => ({ ...p, status: 'playing' as const })),
      ],
    });
    expect(registration({ ...busted, can_re_enter: true }, me)).toBe(Registration.RE_ENTER);
    // Out, and the lobby takes no more of this player's entries (re-entries used up, or closed): closed.
    expect(registration({ ...busted, can_re_enter: false }, me)).toBe(Registration.CLOSED);
    // Placed already (registration closed since, re-entry with it): closed.
    const placed = {
      ...busted,
      late_registration_open: false,
      players: [{ ...busted.players[0]!, status: 'finished' as const, place: 9 }],
    };
    expect(registration({ ...placed, can_re_enter: false }, me)).toBe(Registration.CLOSED);
    // The lobby decides: its word is taken as it is, the field and the entries not counted again here.
    expect(registration({ ...busted, can_re_enter: true, entrants: 100, max_entrants: 100 }, me)).toBe(
      Registration.RE_ENTER,
    );
    // Re-entered: the new entry is in, nothing to do until it is out.
    const back = {
      ...busted,
      registered: true,
      players: [...busted.players, { ...busted.players[0]!, status: 'playing' as const }],
    };
    expect(registration(back, me)).toBe(Registration.CLOSED);
  });
});

describe('reEntryErrorText', () => {
  it('a closed tournament refusing a re-entry says re-entry is over; any other refusal as it comes', () => {
    expect(reEntryErrorText(new LobbyApiError(409, 'tournament_closed', 'x'))).toBe(
      'You cannot re-enter that tournament now: re-entry has closed, or you have none left.',
    );
    expect(reEntryErrorText(new LobbyApiError(402, 'insufficient_funds', 'x'))).toBe(
      'Your wallet does not have enough chips for that.',
    );
    expect(reEntryErrorText(new LobbyApiError(409, 'tournament_full', 'x'))).toBe(
      'Every place in that tournament is taken.',
    );
  });
});

describe('playerStatusText', () => {
  it('registered, playing, and the place (with the prize when one was won)', () => {
    expect(playerStatusText({ status: 'registered', place: null, prize: 0 })).toBe('Registered');
    expect(playerStatusText({ status: 'playing', place: null, prize: 0 })).toBe('Playing');
    expect(playerStatusText({ status: 'finished', place: 7, prize: 0 })).toBe('Place 7');
    expect(playerStatusText({ status: 'finished', place: 1, prize: 1_350 })).toBe('Place 1, won 1,350');
  });

  it('busted: out while late registration is open, its place given when registration closes', () => {
    expect(playerStatusText({ status: 'busted', place: null, prize: 0 })).toBe('Out, placed when registration closes');
  });
});

describe('entryMarkText', () => {
  it('numbers a re-entry by its entry_no, and leaves a first entry unmarked', () => {
    expect(entryMarkText({ entry_no: 1 })).toBeNull();
    expect(entryMarkText({ entry_no: 2 })).toBe('Entry 2');
    expect(entryMarkText({ entry_no: 3 })).toBe('Entry 3');
  });
});

describe('the add-on on sale', () => {
  const until = '2026-12-06T19:25:00.000Z';
  const at = Date.parse(until);

  it('is offered exactly when the lobby says you may buy it, with the config’s terms and the sale’s end', () => {
    const open = { status: 'running' as const, add_on_open: true, add_on_until: until };
    expect(addOnOffer(tournamentDetail({ ...open, can_add_on: true }, ADD_ON_CONFIG))).toEqual({
      chips: 5_000,
      cost: 100,
      until: at,
    });
    // On sale, but you bought it (or are not playing): the lobby says only that you cannot buy.
    expect(addOnOffer(tournamentDetail({ ...open, can_add_on: false }, ADD_ON_CONFIG))).toBeNull();
    // Before the sale opens, and after it is over.
    expect(addOnOffer(tournamentDetail({ status: 'running' }, ADD_ON_CONFIG))).toBeNull();
    expect(addOnOffer(tournamentDetail({ status: 'running', add_on_until: until }, ADD_ON_CONFIG))).toBeNull();
    // A sale whose end the lobby did not give is still offered.
    expect(addOnOffer(tournamentDetail({ ...open, add_on_until: null, can_add_on: true }, ADD_ON_CONFIG))).toEqual({
      chips: 5_000,
      cost: 100,
      until: null,
    });
    // A config without an add-on offers none, whatever the flag says.
    expect(addOnOffer(tournamentDetail({ ...open, can_add_on: true }))).toBeNull();
  });

  it('names the button with what it gives and costs', () => {
    expect(addOnBuyText({ chips: 5_000, cost: 100 })).toBe('Buy the add-on: 5,000 chips for 100');
    expect(addOnBuyText({ chips: 5_000, cost: 0 })).toBe('Take the add-on: 5,000 chips, free');
  });

  it('says until when it is on sale, with the time left (none below zero), or during the break', () => {
    expect(addOnUntilText(at, at - 252_000)).toBe(`On sale until ${formatTime(new Date(at))} (4:12 left)`);
    expect(addOnUntilText(at, at + 5_000)).toBe(`On sale until ${formatTime(new Date(at))} (0:00 left)`);
    // The lobby's clock 60 s ahead of this browser's: the end in local time.
    expect(addOnUntilText(at, at - 60_000, 60_000)).toBe(
      `On sale until ${formatTime(new Date(at - 60_000))} (1:00 left)`,
    );
    expect(addOnUntilText(null, at)).toBe('On sale during the break');
  });

  it('a refused add-on: a closed sale says the break is over, no entry in play says so, the rest as they come', () => {
    expect(addOnRefusal(new LobbyApiError(409, 'tournament_closed', 'x'))).toEqual({
      text: 'The add-on is no longer on sale: its break is over.',
      over: true,
    });
    expect(addOnRefusal(new LobbyApiError(409, 'not_registered', 'x'))).toEqual({
      text: 'You have no entry in play to add chips to.',
      over: true,
    });
    expect(addOnRefusal(new LobbyApiError(409, 'insufficient_funds', 'x'))).toEqual({
      text: 'Your wallet does not have enough chips for that.',
      over: false,
    });
    expect(addOnRefusal(new LobbyApiError(429, 'rate_limited', 'x'))).toEqual({
      text: 'Too many attempts. Wait a little and try again.',
      over: false,
    });
    expect(addOnRefusal(new TypeError('offline')).over).toBe(false);
  });
});
