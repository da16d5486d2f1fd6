import { describe, expect, it } from 'vitest';
import { formatTime } from '../i18n/i18n.js';
import {
  cardFace,
  cardsText,
  chips,
  clockText,
  gameFamily,
  gameShortTitle,
  gameTitle,
  isHiLo,
  shortHex,
  signedChips,
  stakesText,
  streetName,
  untilText,
} from './format.js';

const stakes = {
  small_blind: 1,
  big_blind: 2,
  ante: 0,
  big_blind_ante: 0,
  button_blind: 0,
  bring_in: 0,
  small_bet: 2,
  big_bet: 4,
};

describe('format', () => {
  it('names games and limits the way players say them', () => {
    expect(gameTitle('holdem', 'nl')).toBe("No-Limit Hold'em");
    expect(gameTitle('omaha8', 'pl')).toBe('Pot-Limit Omaha Hi-Lo');
    expect(gameTitle('horse', 'fl')).toBe('HORSE');
    expect(gameShortTitle('27td', 'fl')).toBe('FL 2-7 Triple Draw');
  });

  it('sorts games into board, stud and draw families, and knows the hi-lo ones', () => {
    expect(gameFamily('holdem')).toBe('board');
    expect(gameFamily('shortdeck')).toBe('board');
    expect(gameFamily('razz')).toBe('stud');
    expect(gameFamily('27td')).toBe('draw');
    expect(isHiLo('stud8')).toBe(true);
    expect(isHiLo('razz')).toBe(false);
  });

  it('shows stakes per game family', () => {
    expect(stakesText({ game: 'holdem', limit: 'nl', stakes })).toBe('1/2');
    expect(stakesText({ game: 'holdem', limit: 'fl', stakes })).toBe('2/4');
    expect(
      stakesText({
        game: 'stud',
        limit: 'fl',
        stakes: { ...stakes, big_blind: 0, small_blind: 0, ante: 1, bring_in: 1 },
      }),
    ).toBe('2/4 ante 1, bring-in 1');
    expect(stakesText({ game: 'shortdeck', limit: 'nl', stakes: { ...stakes, button_blind: 2, ante: 1 } })).toBe(
      'button 2 ante 1',
    );
  });

  it('reads cards for eyes and for screen readers', () => {
    expect(cardFace('Td')).toEqual({ rank: '10', suit: 'd', symbol: '♦', name: 'Ten of diamonds' });
    expect(cardFace('As')?.name).toBe('Ace of spades');
    expect(cardFace('1x')).toBeNull();
    expect(cardsText(['Ah', null, 'Kc'])).toBe('A♥ ?? K♣');
  });

  it('formats chips, nets, clocks, streets and hashes', () => {
    expect(chips(1234567)).toBe('1,234,567');
    expect(signedChips(250)).toBe('+250');
    expect(signedChips(-1000)).toBe('\u22121,000');
    expect(signedChips(0)).toBe('0');
    expect(clockText(27_001)).toBe('0:28');
    expect(clockText(65_000)).toBe('1:05');
    expect(clockText(-5)).toBe('0:00');
    expect(streetName('third')).toBe('3rd street');
    expect(streetName('second_draw')).toBe('Second draw');
    expect(streetName('mystery_round')).toBe('mystery round');
    expect(shortHex(`sha256:${'ab'.repeat(32)}`)).toBe('sha256:abababab…abababab');
  });

  it('says until when, in local time, with the time left: the break’s end and the add-on’s sale', () => {
    const end = 1_764_400_300_000;
    expect(untilText('tournamentTable.breakUntil', end, 252_000)).toBe(
      `Break until ${formatTime(new Date(end))} (4:12 left)`,
    );
    // A clock 60 s ahead of this browser's; past the end, no time is left.
    expect(untilText('tournaments.addOnUntil', end, -5_000, 60_000)).toBe(
      `On sale until ${formatTime(new Date(end - 60_000))} (0:00 left)`,
    );
  });
});
