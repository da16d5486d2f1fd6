import { describe, expect, it } from 'vitest';
import { CARD_BY_CODE, cardCode, cardFromCode, initialDeck, InvalidCardError, parseCards } from './cards.js';

describe('cards', () => {
  it('round-trips every code', () => {
    for (let code = 0; code < 52; code++) expect(cardCode(cardFromCode(code))).toBe(code);
    expect(new Set(CARD_BY_CODE).size).toBe(52);
  });

  it('builds the initial decks in suit-then-rank order', () => {
    const full = initialDeck('standard52');
    expect(full.slice(0, 3)).toEqual(['2c', '3c', '4c']);
    expect(full[12]).toBe('Ac');
    expect(full[13]).toBe('2d');
    expect(full[51]).toBe('As');
    const short = initialDeck('short36');
    expect(short).toHaveLength(36);
    expect(short[0]).toBe('6c');
    expect(short[35]).toBe('As');
  });

  it('parses and rejects', () => {
    expect(parseCards('As Td 2c')).toEqual(['As', 'Td', '2c']);
    expect(() => parseCards('AS')).toThrow(InvalidCardError);
    expect(() => parseCards('1c')).toThrow(InvalidCardError);
  });
});
