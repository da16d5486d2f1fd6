import { describe, expect, it } from 'vitest';
import { parseCards, type Card } from '../cards.js';
import { bringInKey, visibleHighValue, visibleLowValue } from './visible.js';

const c = (s: string): Card[] => parseCards(s);
/** The cards sorted by who brings in first. */
const bringInOrder = (cards: string, rule: 'lowest' | 'highest'): string =>
  c(cards)
    .sort((a, b) => bringInKey(a, rule) - bringInKey(b, rule))
    .join(' ');

describe('bring-in order', () => {
  it('Stud: the lowest rank, aces high, then clubs < diamonds < hearts < spades', () => {
    expect(bringInOrder('2s 2h 2d 2c 3c Ac', 'lowest')).toBe('2c 2d 2h 2s 3c Ac');
  });

  it('Razz: the highest rank, aces low, then spades first', () => {
    expect(bringInOrder('Kc Ks Kd Kh Qs Ac 2c', 'highest')).toBe('Ks Kh Kd Kc Qs 2c Ac');
  });
});

describe('visible hands', () => {
  it.each([
    ['Ac Ad Ah As', 'Kc Kd Kh Qs', 'quads beat trips'],
    ['2c 2d 2h 3s', 'Ac Ad Kh Ks', 'trips beat two pair'],
    ['3c 3d 2h 2s', 'Ac Ad Kh Qs', 'two pair beat a pair'],
    ['2c 2d', 'Ac Kd', 'a pair beats ace-king'],
    ['Ac Kd Qh Js', 'Ac Kd Qh Ts', 'high cards from the top'],
    ['9c Td Jh Qs', '9c Td Jh 2s', 'a straight counts for nothing but its cards'],
    ['As 7c', 'Ac 7d', 'equal ranks tie, whatever the suits'],
  ])('high: %s over %s (%s)', (a, b, why) => {
    if (why.startsWith('equal')) expect(visibleHighValue(c(a))).toBe(visibleHighValue(c(b)));
    else expect(visibleHighValue(c(a))).toBeGreaterThan(visibleHighValue(c(b)));
  });

  it.each([
    ['Ac 2d', 'Kc Qd', 'aces are low'],
    ['7c 4d', '8c 2d', 'the lower top card is the better low'],
    ['Kc Qd Jh', 'Ac Ad 2c', 'any unpaired hand beats a pair'],
    ['2c 2d 3h', '3c 3d 2h', 'the lower pair is better'],
    ['5c 5d 6h 6s', '2c 2d 2h 3s', 'two pair beat trips'],
  ])('low: %s over %s (%s)', (a, b) => {
    expect(visibleLowValue(c(a))).toBeGreaterThan(visibleLowValue(c(b)));
  });
});
