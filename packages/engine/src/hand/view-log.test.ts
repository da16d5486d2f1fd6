import { describe, expect, it } from 'vitest';
import { toOhh } from '../export/ohh.js';
import { phhActions } from '../export/phh.js';
import { gameIds, getGameRules } from '../games/registry.js';
import { simulateHand } from '../sim/simulate.js';
import type { Hand } from './hand.js';
import { seesHoleCard, shownCards, viewOperation, viewOperationLog } from './operations.js';

const hands: Hand[] = gameIds().flatMap((id) => {
  const rules = getGameRules(id);
  return Array.from(
    { length: 15 },
    (_, i) =>
      simulateHand({
        rules,
        limit: rules.defaultLimit,
        players: id === '27td' ? 6 : { min: 2, max: rules.maxSeats },
        rake: false,
        seed: `view-log-${id}-${i}`,
      }).hand,
  );
});
const viewers = (hand: Hand): (number | null)[] => [null, ...hand.setup.players.map((p) => p.seat)];

describe('viewOperationLog: a finished hand as one viewer may see it', () => {
  it('shows another seat’s hole card only when it was dealt up or its owner showed that card', () => {
    let shownToOthers = 0;
    let discardedButHidden = 0;
    for (const hand of hands) {
      const shown = shownCards(hand.operations);
      const discarded = new Set(hand.operations.flatMap((op) => (op.type === 'discard' ? op.cards : [])));
      for (const viewer of viewers(hand)) {
        viewOperationLog(hand.operations, viewer).forEach((view, i) => {
          const op = hand.operations[i]!;
          if (op.type !== 'deal_hole' || view.type !== 'deal_hole') return;
          op.cards.forEach((c, k) => {
            const up = op.visibility[k] === 'up';
            expect(view.cards[k] === c).toBe(seesHoleCard(viewer, op.seat, c, up, shown));
            if (op.seat !== viewer && !up && view.cards[k] === c) shownToOthers++;
            // A shown draw hand is the final five: the cards thrown away before it stay hidden.
            if (op.seat !== viewer && shown.has(op.seat) && discarded.has(c) && !shown.get(op.seat)!.has(c)) {
              expect(view.cards[k]).toBeNull();
              discardedButHidden++;
            }
          });
        });
      }
    }
    expect(shownToOthers).toBeGreaterThan(0);
    expect(discardedButHidden).toBeGreaterThan(0);
  });

  it('never shows another seat’s discards, nor a reshuffle’s dead cards to anyone', () => {
    let reshuffles = 0;
    for (const hand of hands) {
      for (const viewer of viewers(hand)) {
        for (const view of viewOperationLog(hand.operations, viewer)) {
          if (view.type === 'discard' && view.seat !== viewer) expect(view.cards.every((c) => c === null)).toBe(true);
          if (view.type === 'reshuffle') {
            reshuffles++;
            expect(view.discards.every((c) => c === null)).toBe(true);
          }
        }
      }
    }
    expect(reshuffles).toBeGreaterThan(0);
  });

  it('without later shows is the live view, operation by operation', () => {
    for (const hand of hands.slice(0, 40)) {
      for (const viewer of viewers(hand)) {
        expect(hand.operationsFor(viewer)).toEqual(hand.operations.map((op) => viewOperation(op, viewer)));
      }
    }
  });
});

describe('the exporters write what the view shows', () => {
  it('OHH for a viewer carries only the cards viewOperationLog shows, each with its own visibility', () => {
    for (const hand of hands) {
      for (const viewer of viewers(hand)) {
        const views = viewOperationLog(hand.operations, viewer);
        const visible = new Set(
          views.flatMap((v) => (v.type === 'reshuffle' ? [] : 'cards' in v ? v.cards : [])).filter((c) => c !== null),
        );
        const ohh = toOhh(hand, { viewer }).ohh;
        for (const round of ohh.rounds) {
          for (const a of round.actions) {
            for (const c of a.cards ?? []) expect(visible.has(c), `${c} for viewer ${String(viewer)}`).toBe(true);
            if (a._visibility !== undefined) expect(a._visibility).toHaveLength(a.cards?.length ?? 0);
          }
        }
      }
    }
  });

  it('PHH for a viewer writes ?? exactly where the live view hides a card', () => {
    for (const hand of hands) {
      for (const viewer of viewers(hand)) {
        const hiddenLive = hand.operations
          .map((op) => viewOperation(op, viewer))
          .flatMap((v) => (v.type === 'deal_hole' || v.type === 'discard' ? v.cards : []))
          .filter((c) => c === null).length;
        const written = phhActions(hand, undefined, viewer)
          .filter((line) => line.startsWith('d dh') || / sd /.test(line))
          .join(' ');
        expect((written.match(/\?\?/g) ?? []).length).toBe(hiddenLive);
      }
    }
  });
});
