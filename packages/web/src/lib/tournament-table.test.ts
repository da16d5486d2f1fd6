import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, formatTime } from '../i18n/i18n.js';
import { ADD_ON_CONFIG, ALICE, TOURNAMENT, tournamentDetail, tournamentView } from '../test-support/fixtures.js';
import {
  breakAddOn,
  fieldText,
  followTournament,
  levelClock,
  levelClockText,
  levelStakesText,
  levelText,
  placeFromStacks,
  placeText,
  resultPlaceText,
  resultPrizeText,
  judgeAgain,
  resultTitle,
  yourEntries,
  type TournamentSeatState,
  type YourEntries,
} from './tournament-table.js';

const NOW = 1_764_400_000_000;
const BOB = '00000000-0000-4000-8000-000000000002';

afterEach(() => applyLocale('en'));

describe('your place', () => {
  it('is the rank of your stack among the stacks, largest first', () => {
    const stacks = [40_000, 25_000, 12_000, 8_000, 5_000];
    expect(placeFromStacks(stacks, 40_000)).toBe(1);
    expect(placeFromStacks(stacks, 12_000)).toBe(3);
    expect(placeFromStacks(stacks, 5_000)).toBe(5);
    // A stack between two: the place after the larger ones.
    expect(placeFromStacks(stacks, 10_000)).toBe(4);
    // Equal stacks share the better place.
    expect(placeFromStacks([300, 300, 100], 300)).toBe(1);
    expect(placeFromStacks([300, 100, 100], 100)).toBe(2);
    // Never beyond the field (a stack the director has not counted yet), and none for no field.
    expect(placeFromStacks([300, 200], 10)).toBe(2);
    expect(placeFromStacks([], 100)).toBeNull();
  });
});

describe('followTournament', () => {
  const seated = { stack: 12_000, bet: 0, inHand: false };
  /** The lobby says your entry 1 is your last (no re-entry). */
  const LAST: YourEntries = { latest: 1, final: true };

  it('starts from the first view, with your place when you are seated and none when you watch', () => {
    expect(followTournament(null, undefined, seated, ALICE, LAST)).toBeNull();
    const view = tournamentView();
    expect(followTournament(null, view, seated, ALICE, LAST)).toEqual({ view, place: 3, result: null, pending: null });
    expect(followTournament(null, view, null, ALICE, LAST)).toEqual({ view, place: null, result: null, pending: null });
  });

  it('reads your place again between hands only', () => {
    const start = followTournament(null, tournamentView(), seated, ALICE, LAST)!;
    // In a hand: the stack behind your bets is not your place; the last one stays.
    const inHand = followTournament(start, tournamentView(), { stack: 1_000, bet: 500, inHand: true }, ALICE, LAST)!;
    expect(inHand.place).toBe(3);
    // The hand is over and you doubled up.
    const after = followTournament(
      inHand,
      tournamentView({ stacks: [40_000, 24_000, 25_000, 8_000, 5_000].sort((a, b) => b - a) }),
      { stack: 24_000, bet: 0, inHand: false },
      ALICE,
      LAST,
    )!;
    expect(after.place).toBe(3);
    const doubled = followTournament(after, after.view, { stack: 30_000, bet: 0, inHand: false }, ALICE, LAST)!;
    expect(doubled.place).toBe(2);
    // Joined in the middle of a hand: read now, from the stack and this round's bet (before the flop,
    // the big blind's 200 in front of a stack of 24,800 of 25,000 is still second place).
    expect(
      followTournament(null, tournamentView(), { stack: 24_800, bet: 200, inHand: true }, ALICE, LAST)!.place,
    ).toBe(2);
    expect(followTournament(null, tournamentView(), { stack: 5_000, bet: 0, inHand: true }, ALICE, LAST)!.place).toBe(
      5,
    );
  });

  it('keeps the same state when nothing changed (nothing re-renders)', () => {
    const view = tournamentView();
    const start = followTournament(null, view, seated, ALICE, LAST)!;
    expect(followTournament(start, view, seated, ALICE, LAST)).toBe(start);
    expect(followTournament(start, undefined, seated, ALICE, LAST)).toBe(start);
  });

  it('takes your result from `placed` and keeps it after the list forgets you', () => {
    const start = followTournament(null, tournamentView(), seated, BOB, LAST);
    expect(start!.result).toEqual({ place: 6, prize: 0 });
    expect(start!.place).toBeNull();
    const later = followTournament(start, tournamentView({ placed: [] }), null, BOB, LAST)!;
    expect(later.result).toEqual({ place: 6, prize: 0 });
    // Someone else's page at the same table: no result of theirs.
    expect(followTournament(null, tournamentView(), seated, ALICE, LAST)!.result).toBeNull();
    expect(followTournament(null, tournamentView(), seated, null, LAST)!.result).toBeNull();
  });

  it('names the winner with first place and the first prize', () => {
    const won = tournamentView({
      players_left: 1,
      stacks: [90_000],
      placed: [
        { user_id: ALICE, name: 'alice', place: 1, prize: 500, entry_no: 1 },
        { user_id: BOB, name: 'bob', place: 2, prize: 300, entry_no: 1 },
      ],
    });
    const prev: TournamentSeatState = { view: tournamentView(), place: 2, result: null, pending: null };
    const st = followTournament(prev, won, { stack: 90_000, bet: 0, inHand: false }, ALICE, LAST)!;
    expect(st.result).toEqual({ place: 1, prize: 500 });
    expect(st.view.tournament_id).toBe(TOURNAMENT);
  });
});

describe('your result after a re-entry: your last entry’s', () => {
  const seated = { stack: 12_000, bet: 0, inHand: false };
  const row = (entry_no: number, place: number, prize = 0) => ({
    user_id: ALICE,
    name: 'alice',
    place,
    prize,
    entry_no,
  });
  /** Late registration closes: your first entry's place (9th) is published while you play your second. */
  const firstPlaced = tournamentView({ players_left: 5, entrants: 10, placed: [row(1, 9)] });

  it('an earlier entry’s row is no result: you play on, with your place', () => {
    // The page knows you re-entered (the lobby lists your entry 2), even before registration closed.
    for (const known of [
      { latest: 2, final: false },
      { latest: 2, final: true },
    ]) {
      const st = followTournament(null, firstPlaced, seated, ALICE, known)!;
      expect(st.result).toBeNull();
      expect(st.pending).toBeNull();
      expect(st.place).toBe(3);
    }
  });

  it('a row of yours the page cannot place among your entries waits for the lobby, and shows no result', () => {
    // Nothing read from the lobby, or read while another entry could still come.
    for (const known of [null, { latest: 1, final: false }]) {
      const st = followTournament(null, firstPlaced, seated, ALICE, known)!;
      expect(st.result).toBeNull();
      expect(st.pending).toEqual(row(1, 9));
      expect(st.place).toBe(3);
      // Still waiting: the row is held after the list forgets it.
      const later = followTournament(st, tournamentView({ placed: [] }), seated, ALICE, known)!;
      expect(later.pending).toEqual(row(1, 9));
      expect(later.result).toBeNull();
      // The lobby answers: you re-entered, the row was your first entry's, dropped.
      const reEntered = judgeAgain(later, { latest: 2, final: true });
      expect(reEntered).toMatchObject({ result: null, pending: null, place: 3 });
      // Or it was your only entry: your result.
      expect(judgeAgain(later, { latest: 1, final: true })).toMatchObject({
        result: { place: 9, prize: 0 },
        pending: null,
        place: null,
      });
      // An answer that says no more: the same state.
      expect(judgeAgain(later, { latest: 1, final: false })).toBe(later);
    }
  });

  it('your last entry’s row is your result, also when the earlier one is still listed', () => {
    const known = { latest: 2, final: true };
    const playing = followTournament(null, firstPlaced, seated, ALICE, known)!;
    const out = followTournament(
      playing,
      tournamentView({ players_left: 4, entrants: 10, placed: [row(2, 5, 20), row(1, 9)] }),
      null,
      ALICE,
      known,
    )!;
    expect(out.result).toEqual({ place: 5, prize: 20 });
    expect(out.place).toBeNull();
    // Kept once taken.
    expect(followTournament(out, firstPlaced, null, ALICE, known)!.result).toEqual({ place: 5, prize: 20 });
    // Pending your first entry's row, the lobby not answered yet: your second's comes, and is pending in its place.
    const waiting = followTournament(null, firstPlaced, seated, ALICE, null)!;
    const both = followTournament(waiting, tournamentView({ placed: [row(2, 5, 20)] }), null, ALICE, null)!;
    expect(both.pending).toEqual(row(2, 5, 20));
    expect(judgeAgain(both, known).result).toEqual({ place: 5, prize: 20 });
  });

  it('what is known of your entries is asked for only when a row of yours is to be judged', () => {
    let asked = 0;
    const known = (): YourEntries => (asked++, { latest: 2, final: true });
    // No row of yours in `placed` (nobody's, or someone else's): not asked.
    const playing = followTournament(null, tournamentView({ placed: [] }), seated, ALICE, known)!;
    followTournament(playing, tournamentView(), seated, ALICE, known);
    expect(asked).toBe(0);
    // Your first entry's row: asked, and judged by the answer (you re-entered).
    expect(followTournament(playing, firstPlaced, seated, ALICE, known)).toMatchObject({ result: null, pending: null });
    expect(asked).toBe(1);
    // Your result taken: not asked again.
    const out = followTournament(playing, tournamentView({ placed: [row(2, 5, 20)] }), null, ALICE, known)!;
    expect(out.result).toEqual({ place: 5, prize: 20 });
    expect(asked).toBe(2);
    followTournament(out, tournamentView({ placed: [row(2, 5, 20), row(1, 9)] }), null, ALICE, known);
    expect(asked).toBe(2);
  });
});

describe('yourEntries', () => {
  const players = tournamentDetail().players;
  const me = players[0]!;
  const detail = (over: Partial<Parameters<typeof yourEntries>[0]> = {}) =>
    ({ status: 'running', late_registration_open: false, re_entry_open: false, players, ...over }) as const;

  it('your latest entry is the highest entry_no among your rows, whatever their order', () => {
    const rows = [
      { ...me, entry_no: 2, status: 'playing' as const },
      ...players.slice(1),
      { ...me, entry_no: 1, status: 'busted' as const },
    ];
    expect(yourEntries(detail({ players: rows }), ALICE).latest).toBe(2);
    expect(yourEntries(detail(), ALICE).latest).toBe(1);
    expect(yourEntries(detail(), 'someone-else').latest).toBeNull();
    expect(yourEntries(detail(), null).latest).toBeNull();
  });

  it('final once the lobby takes no more entries: running with late registration and re-entry closed, or over', () => {
    expect(yourEntries(detail(), ALICE).final).toBe(true);
    expect(yourEntries(detail({ status: 'finished' }), ALICE).final).toBe(true);
    expect(yourEntries(detail({ status: 'cancelled' }), ALICE).final).toBe(true);
    expect(yourEntries(detail({ late_registration_open: true }), ALICE).final).toBe(false);
    expect(yourEntries(detail({ late_registration_open: true, re_entry_open: true }), ALICE).final).toBe(false);
    expect(yourEntries(detail({ status: 'registering' }), ALICE).final).toBe(false);
  });
});

describe('the level clock', () => {
  it('counts down to the next level, then waits for the next hand', () => {
    const view = tournamentView();
    expect(levelClock(view, NOW)).toEqual({ kind: 'level', remainingMs: 570_000 });
    expect(levelClockText(levelClock(view, NOW))).toBe('Next level in 9:30');
    expect(levelClockText(levelClock(view, NOW + 569_100))).toBe('Next level in 0:01');
    expect(levelClock(view, NOW + 570_000)).toEqual({ kind: 'level_due' });
    expect(levelClockText(levelClock(view, NOW + 600_000))).toBe('Next level with the next hand');
  });

  it('says until when a break lasts, in local time, and how long is left', () => {
    const end = NOW + 300_000;
    const view = tournamentView({ level_ends_at: null, break_ends_at: end });
    expect(levelClock(view, NOW)).toEqual({ kind: 'break', endsAt: end, remainingMs: 300_000 });
    expect(levelClockText(levelClock(view, NOW))).toBe(`Break until ${formatTime(new Date(end))} (5:00 left)`);
    // The server is a minute ahead of this browser: the break ends a minute earlier by its clock.
    expect(levelClockText(levelClock(view, NOW + 299_500), 60_000)).toBe(
      `Break until ${formatTime(new Date(end - 60_000))} (0:01 left)`,
    );
    expect(levelClock(view, end + 5_000)).toEqual({ kind: 'break', endsAt: end, remainingMs: 0 });
  });

  it('has no clock when levels last a number of hands', () => {
    const view = tournamentView({ level_ends_at: null, break_ends_at: null });
    expect(levelClock(view, NOW)).toEqual({ kind: 'hands' });
    expect(levelClockText(levelClock(view, NOW))).toBe('Levels by hands');
  });

  it('stops once one player is left: the tournament is over', () => {
    const view = tournamentView({ players_left: 1, stacks: [90_000] });
    expect(levelClock(view, NOW)).toEqual({ kind: 'over' });
    expect(levelClockText(levelClock(view, NOW))).toBe('The tournament is over');
    expect(levelClock({ ...view, break_ends_at: NOW + 1_000 }, NOW)).toEqual({ kind: 'over' });
  });

  it('speaks Chinese', () => {
    applyLocale('zh-CN');
    expect(levelClockText(levelClock(tournamentView(), NOW))).toBe('距下一级别 9:30');
    expect(levelClockText({ kind: 'hands' })).toBe('按手数升级');
  });
});

describe('the header’s words', () => {
  it('names the level with its blinds and ante', () => {
    const level = tournamentView().level;
    expect(levelText(level)).toBe('Level 3');
    expect(levelStakesText(level)).toBe('100/200, ante 25');
    expect(levelStakesText({ ...level, ante: 0, big_blind_ante: 200 })).toBe('100/200, big blind ante 200');
    expect(levelStakesText({ ...level, number: 12, small_blind: 5_000, big_blind: 10_000, ante: 0 })).toBe(
      '5,000/10,000',
    );
  });

  it('gives the field and your place among the players left', () => {
    expect(fieldText(tournamentView())).toBe('Players 5/9');
    expect(placeText(3, tournamentView())).toBe('Your place 3 of 5');
    // A place the stacks gave before the field shrank in the same update: never "6 of 5".
    expect(placeText(6, tournamentView())).toBe('Your place 6 of 6');
  });

  it('tells the result: the winner, a paid place, a place out of the money', () => {
    expect(resultTitle({ place: 1, prize: 500 })).toBe('You won the tournament!');
    expect(resultTitle({ place: 4, prize: 0 })).toBe('You are out of the tournament');
    expect(resultPlaceText({ place: 3, prize: 100 }, 9)).toBe('You finished in place 3 of 9.');
    expect(resultPrizeText({ place: 3, prize: 1_100 })).toBe('Your prize: 1,100 chips, paid to your wallet.');
    expect(resultPrizeText({ place: 4, prize: 0 })).toBe('No prize this time.');
  });
});

describe('breakAddOn', () => {
  const until = '2026-12-06T19:25:00.000Z';
  const running = (over: Parameters<typeof tournamentDetail>[0] = {}) =>
    tournamentDetail({ status: 'running', ...over }, ADD_ON_CONFIG);

  it('offers the add-on the lobby says you may buy now, with its terms and the sale’s end', () => {
    expect(breakAddOn(running({ add_on_open: true, add_on_until: until, can_add_on: true }))).toEqual({
      kind: 'offer',
      offer: { chips: 5_000, cost: 100, until: Date.parse(until) },
    });
  });

  it('waits while the sale has not opened in a tournament that has one (its director opens it at the break)', () => {
    expect(breakAddOn(running())).toEqual({ kind: 'wait' });
    // Read before the start: the sale is still to come.
    expect(breakAddOn(running({ status: 'registering' }))).toEqual({ kind: 'wait' });
  });

  it('nothing, for good: no add-on, on sale but not to you, its sale over, or the tournament over', () => {
    expect(breakAddOn(tournamentDetail({ status: 'running', add_on_open: true, can_add_on: true }))).toEqual({
      kind: 'none',
    });
    expect(breakAddOn(running({ add_on_open: true, add_on_until: until }))).toEqual({ kind: 'none' });
    expect(breakAddOn(running({ add_on_until: until }))).toEqual({ kind: 'none' });
    expect(breakAddOn(running({ status: 'finished' }))).toEqual({ kind: 'none' });
    expect(breakAddOn(running({ status: 'cancelled' }))).toEqual({ kind: 'none' });
  });
});
