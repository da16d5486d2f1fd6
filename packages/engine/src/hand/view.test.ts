import { describe, expect, it } from 'vitest';
import { isCard } from '../cards.js';
import { gameIds, getGameRules } from '../games/registry.js';
import { simulateHand } from '../sim/simulate.js';
import type { Hand } from './hand.js';

/** Every card string anywhere in a JSON value. */
function cardsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string' && isCard(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) cardsIn(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) cardsIn(v, out);
  return out;
}

/** What `viewer` is entitled to see of a hand: the board, up cards, shown hands, and their own cards. */
function entitled(hand: Hand, viewer: number | null): Set<string> {
  const ok = new Set<string>();
  for (const op of hand.operations) {
    if (op.type === 'deal_board' || op.type === 'show') for (const c of op.cards) ok.add(c);
    if (op.type === 'deal_hole')
      op.cards.forEach((c, i) => (op.visibility[i] === 'up' || op.seat === viewer) && ok.add(c));
    if (op.type === 'discard' && op.seat === viewer) for (const c of op.cards) ok.add(c);
  }
  return ok;
}

describe('per-viewer redaction (invariant 2)', () => {
  it('no viewer’s operations or state carry a card they may not see, in any game', () => {
    let checked = 0;
    for (const id of gameIds()) {
      const rules = getGameRules(id);
      for (let i = 0; i < 25; i++) {
        const { hand } = simulateHand({
          rules,
          limit: rules.defaultLimit,
          players: { min: 2, max: rules.maxSeats },
          rake: false,
          seed: `view-${id}-${i}`,
        });
        const setupCards = new Set(hand.setup.deck);
        for (const viewer of [null, ...hand.setup.players.map((p) => p.seat)]) {
          const ok = entitled(hand, viewer);
          // The setup holds the whole deck: everything but the setup is what a viewer would be sent.
          const sent = cardsIn([hand.operationsFor(viewer), hand.view(viewer)]);
          for (const c of sent) {
            expect(setupCards.has(c as never)).toBe(true);
            if (!ok.has(c)) throw new Error(`${id} seed view-${id}-${i}: viewer ${String(viewer)} is sent ${c}`);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('hides another seat’s down cards and discards but not its up cards', () => {
    const { hand } = simulateHand({
      rules: getGameRules('stud'),
      limit: 'fl',
      players: 3,
      rake: false,
      seed: 'view-stud',
    });
    const [a, b] = hand.setup.players.map((p) => p.seat) as [number, number];
    const dealTo = (viewer: number) =>
      hand.operationsFor(viewer).find((o) => o.type === 'deal_hole' && o.seat === b && o.street === 0);
    const theirs = dealTo(a);
    const own = dealTo(b);
    if (theirs?.type !== 'deal_hole' || own?.type !== 'deal_hole') throw new Error('no third-street deal');
    expect(theirs.visibility).toEqual(['down', 'down', 'up']);
    expect(theirs.cards.map((c) => c === null)).toEqual([true, true, false]);
    expect(own.cards.every((c) => c !== null)).toBe(true);
  });
});
