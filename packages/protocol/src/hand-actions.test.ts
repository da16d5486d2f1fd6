import {
  OperationType,
  gameIds,
  getGameRules,
  shownCards,
  simulateHand,
  viewOperation,
  viewOperationLog,
  type Hand,
  type Operation,
} from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { handActionSchema, toHandAction, type HandAction } from './hand-actions.js';

/** Random hands of every game, six-handed where the game allows it so that draws reshuffle. */
function corpus(perGame: number): Hand[] {
  const hands: Hand[] = [];
  for (const id of gameIds()) {
    const rules = getGameRules(id);
    for (let i = 0; i < perGame; i++) {
      const players = id === '27td' ? 6 : { min: 2, max: rules.maxSeats };
      hands.push(
        simulateHand({ rules, limit: rules.defaultLimit, players, rake: true, seed: `actions-${id}-${i}` }).hand,
      );
    }
  }
  return hands;
}

/** The cards an action carries, in order: what the viewer is shown of it. */
function cardsOf(a: HandAction | Operation | ReturnType<typeof viewOperation>): readonly (string | null)[] {
  if (a.type === 'reshuffle') return a.discards;
  return 'cards' in a ? a.cards : [];
}

const hands = corpus(12);

describe('the hand history’s operation log (toHandAction over viewOperationLog)', () => {
  it('covers every operation type, for owners, other players and spectators alike', () => {
    const seen = new Set<string>();
    for (const hand of hands) for (const op of hand.operations) seen.add(op.type);
    expect([...seen].sort()).toEqual(Object.values(OperationType).sort());
  });

  it('is valid against the contract and carries exactly the engine view’s cards and fields', () => {
    for (const hand of hands) {
      for (const viewer of [null, ...hand.setup.players.map((p) => p.seat)]) {
        const views = viewOperationLog(hand.operations, viewer);
        views.forEach((view, seq) => {
          const action = toHandAction(seq, view);
          // Strict parse: no field the contract does not name (deck indices, per-card visibility).
          expect(handActionSchema.parse(action)).toEqual(action);
          expect(action).toMatchObject({ seq, type: view.type });
          expect(cardsOf(action)).toEqual(cardsOf(view));
          if ('seat' in view) expect(action).toHaveProperty('seat', view.seat);
          if ('amount' in view) expect(action).toHaveProperty('amount', view.amount);
          if ('allIn' in view) expect(action).toHaveProperty('all_in', view.allIn);
          if (view.type === 'reshuffle') expect(action).toHaveProperty('at_index', view.atIndex);
          expect(Object.keys(action)).not.toContain('indices');
          expect(Object.keys(action)).not.toContain('visibility');
        });
      }
    }
  });

  it('follows one redaction rule: own cards, up cards and shown cards; never another seat’s discards or a reshuffle’s', () => {
    const counts = { hiddenHole: 0, shownHole: 0, hiddenDiscards: 0, ownDiscards: 0, reshuffles: 0 };
    for (const hand of hands) {
      const shown = shownCards(hand.operations);
      for (const viewer of [null, ...hand.setup.players.map((p) => p.seat)]) {
        const actions = viewOperationLog(hand.operations, viewer).map((v, seq) => toHandAction(seq, v));
        hand.operations.forEach((op, seq) => {
          const a = actions[seq]!;
          if (op.type === 'deal_hole' && a.type === 'deal_hole') {
            op.cards.forEach((c, i) => {
              const visible = op.seat === viewer || op.visibility[i] === 'up' || (shown.get(op.seat)?.has(c) ?? false);
              expect(a.cards[i]).toBe(visible ? c : null);
              if (!visible) counts.hiddenHole++;
              else if (op.seat !== viewer && op.visibility[i] === 'down') counts.shownHole++;
            });
          } else if (op.type === 'discard' && a.type === 'discard') {
            expect(a.cards).toEqual(op.seat === viewer ? op.cards : op.cards.map(() => null));
            if (op.seat === viewer) counts.ownDiscards += op.cards.length;
            else counts.hiddenDiscards += op.cards.length;
          } else if (op.type === 'reshuffle' && a.type === 'reshuffle') {
            expect(a.discards.every((c) => c === null)).toBe(true);
            expect(a.discards).toHaveLength(op.discards.length);
            counts.reshuffles++;
          } else {
            // Everything else is public: the same cards for every viewer.
            expect(cardsOf(a)).toEqual(cardsOf(op));
          }
        });
      }
    }
    // Each kind happened, or the checks above proved little.
    for (const [kind, n] of Object.entries(counts)) expect(n, kind).toBeGreaterThan(0);
  });

  it('differs from the live view only in hole cards their owner showed later', () => {
    for (const hand of hands) {
      const shown = shownCards(hand.operations);
      for (const viewer of [null, ...hand.setup.players.map((p) => p.seat)]) {
        const after = viewOperationLog(hand.operations, viewer);
        hand.operations.forEach((op, i) => {
          const live = viewOperation(op, viewer);
          if (op.type !== 'deal_hole' || live.type !== 'deal_hole') {
            expect(after[i]).toEqual(live);
            return;
          }
          const later = after[i] as typeof live;
          later.cards.forEach((c, k) => {
            if (live.cards[k] === null && c !== null) expect(shown.get(op.seat)?.has(c)).toBe(true);
            else expect(c).toBe(live.cards[k]);
          });
        });
      }
    }
  });

  it('writes a timed-out decision as timeout: true and nothing else as a timeout', () => {
    let timeouts = 0;
    for (const hand of hands) {
      hand.operations.forEach((op, seq) => {
        const a = toHandAction(seq, op);
        const timedOut = 'timeout' in op && op.timeout === true;
        if (timedOut) timeouts++;
        expect('timeout' in a && a.timeout === true).toBe(timedOut);
      });
    }
    expect(timeouts).toBeGreaterThan(0);
  });
});
