import type { TableState } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { HAND, seat, tableState, validActions } from '../test-support/fixtures.js';
import {
  keepPreAction,
  preActionDecision,
  preActionOptions,
  preActionSpot,
  togglePreAction,
  type PreActionKind,
  type PreActionSelection,
} from './pre-actions.js';

/** A betting round with the hero in seat 2; seat 1 has bet `currentBet`. */
function betting(
  over: { currentBet?: number; heroBet?: number; heroStack?: number; street?: string; hand?: string } = {},
  heroOver: Partial<TableState['seats'][number]> = {},
): TableState {
  const currentBet = over.currentBet ?? 0;
  return tableState({
    phase: 'betting',
    hand_id: over.hand ?? HAND,
    street: over.street ?? 'flop',
    current_bet: currentBet,
    actor: 1,
    seats: [
      seat(1, { in_hand: true, folded: false, all_in: false, bet: currentBet }),
      seat(2, {
        in_hand: true,
        folded: false,
        all_in: false,
        bet: over.heroBet ?? 0,
        stack: over.heroStack ?? 1000,
        ...heroOver,
      }),
    ],
    hero: { seat: 2, cards: ['Ah', 'Kd'] },
  });
}

const kinds = (s: TableState): PreActionKind[] => preActionOptions(preActionSpot(s)).map((o) => o.kind);

function select(kind: PreActionKind, s: TableState): PreActionSelection {
  const sel = togglePreAction(null, kind, preActionSpot(s));
  if (sel === null) throw new Error(`${kind} not offered`);
  return sel;
}

describe('preActionOptions', () => {
  it('offers Check/Fold, Check and Call any when there is nothing to call', () => {
    expect(kinds(betting())).toEqual(['check_fold', 'check', 'call_any']);
  });

  it('offers Call N with what calling costs now when there is a bet to call', () => {
    const opts = preActionOptions(preActionSpot(betting({ currentBet: 60, heroBet: 20 })));
    expect(opts).toEqual([
      { kind: 'check_fold', amount: 0 },
      { kind: 'call', amount: 40 },
      { kind: 'call_any', amount: 0 },
    ]);
  });

  it('caps Call N at the stack (a call that puts the player all-in)', () => {
    const spot = preActionSpot(betting({ currentBet: 500, heroStack: 120 }));
    expect(spot).toMatchObject({ toCall: 120, callIsAllIn: true });
    expect(preActionOptions(spot).find((o) => o.kind === 'call')?.amount).toBe(120);
  });

  it('offers nothing when folded, all-in, out of the hand, without chips, or a spectator', () => {
    expect(kinds(betting({}, { folded: true }))).toEqual([]);
    expect(kinds(betting({}, { all_in: true }))).toEqual([]);
    expect(kinds(betting({}, { in_hand: false }))).toEqual([]);
    expect(kinds(betting({ heroStack: 0 }))).toEqual([]);
    const { hero: _hero, ...spectator } = betting();
    expect(kinds(spectator)).toEqual([]);
  });

  it('offers nothing outside a betting round', () => {
    for (const phase of ['waiting', 'seeding', 'drawing', 'showdown', 'complete'] as const) {
      expect(kinds({ ...betting(), phase })).toEqual([]);
    }
    expect(preActionSpot(null)).toBeNull();
  });
});

describe('togglePreAction', () => {
  it('selects one choice at a time and deselects it on a second click', () => {
    const s = betting();
    const spot = preActionSpot(s);
    const a = togglePreAction(null, 'check', spot);
    expect(a).toMatchObject({ kind: 'check', handId: HAND, street: 'flop', toCall: 0 });
    const b = togglePreAction(a, 'call_any', spot);
    expect(b?.kind).toBe('call_any');
    expect(togglePreAction(b, 'call_any', spot)).toBeNull();
  });

  it('ignores a choice that is not offered', () => {
    const facing = preActionSpot(betting({ currentBet: 40 }));
    expect(togglePreAction(null, 'check', facing)).toBeNull();
    const sel = select('call_any', betting());
    expect(togglePreAction(sel, 'check', null)).toBe(sel);
  });
});

describe('keepPreAction', () => {
  it('clears Check when a bet appears', () => {
    const sel = select('check', betting());
    expect(keepPreAction(sel, preActionSpot(betting()))).toBe(sel);
    expect(keepPreAction(sel, preActionSpot(betting({ currentBet: 40 })))).toBeNull();
  });

  it('clears Call N when the cost of calling changes, and keeps it while it does not', () => {
    const sel = select('call', betting({ currentBet: 40 }));
    expect(sel.toCall).toBe(40);
    expect(keepPreAction(sel, preActionSpot(betting({ currentBet: 40 })))).toBe(sel);
    expect(keepPreAction(sel, preActionSpot(betting({ currentBet: 120 })))).toBeNull();
  });

  it('keeps Check/Fold and Call any through bets and raises', () => {
    for (const kind of ['check_fold', 'call_any'] as const) {
      const sel = select(kind, betting());
      expect(keepPreAction(sel, preActionSpot(betting({ currentBet: 40 })))).toBe(sel);
      expect(keepPreAction(sel, preActionSpot(betting({ currentBet: 400 })))).toBe(sel);
    }
  });

  it('clears every choice at a new street and at a new hand', () => {
    for (const kind of ['check_fold', 'check', 'call_any'] as const) {
      const sel = select(kind, betting());
      expect(keepPreAction(sel, preActionSpot(betting({ street: 'turn' })))).toBeNull();
      expect(keepPreAction(sel, preActionSpot(betting({ hand: 'another-hand' })))).toBeNull();
    }
  });

  it('clears when the choices are no longer offered', () => {
    const sel = select('call_any', betting());
    expect(keepPreAction(sel, preActionSpot(betting({}, { folded: true })))).toBeNull();
    expect(keepPreAction(sel, preActionSpot({ ...betting(), phase: 'showdown' }))).toBeNull();
    expect(keepPreAction(null, preActionSpot(betting()))).toBeNull();
  });
});

describe('preActionDecision', () => {
  const free = validActions({ fold: false, check: true, call: null, current_bet: 0, bet: { min: 20, max: 1000 } });
  const facing = (call: number) => validActions({ fold: true, check: false, call, current_bet: call });

  it('Check/Fold checks when it can, else folds', () => {
    const sel = select('check_fold', betting());
    expect(preActionDecision(sel, free)).toEqual({ action: 'check' });
    expect(preActionDecision(sel, facing(40))).toEqual({ action: 'fold' });
    expect(preActionDecision(sel, validActions({ fold: false, check: false }))).toBeNull();
  });

  it('Check checks when it can, else leaves the decision to the player', () => {
    const sel = select('check', betting());
    expect(preActionDecision(sel, free)).toEqual({ action: 'check' });
    expect(preActionDecision(sel, facing(40))).toBeNull();
  });

  it('Call N calls only while the call still costs N', () => {
    const sel = select('call', betting({ currentBet: 40 }));
    expect(preActionDecision(sel, facing(40))).toEqual({ action: 'call' });
    expect(preActionDecision(sel, facing(80))).toBeNull();
    expect(preActionDecision(sel, free)).toBeNull();
  });

  it('Call N goes all-in when the server offers calling N only as an all-in', () => {
    const sel = select('call', betting({ currentBet: 500, heroStack: 120 }));
    const va = validActions({ call: null, raise: null, all_in: 120, current_bet: 500, player_bet: 0, stack: 120 });
    expect(preActionDecision(sel, va)).toEqual({ action: 'all_in' });
    expect(preActionDecision(sel, { ...va, all_in: 100, stack: 100 })).toBeNull();
  });

  it('Call any checks, calls, or calls all-in, but never raises', () => {
    const sel = select('call_any', betting());
    expect(preActionDecision(sel, free)).toEqual({ action: 'check' });
    expect(preActionDecision(sel, facing(300))).toEqual({ action: 'call' });
    expect(
      preActionDecision(
        sel,
        validActions({ call: null, raise: null, all_in: 200, current_bet: 500, player_bet: 0, stack: 200 }),
      ),
    ).toEqual({ action: 'all_in' });
    expect(
      preActionDecision(sel, validActions({ check: false, call: null, all_in: 2000, current_bet: 500 })),
    ).toBeNull();
  });

  it('never answers a draw round, and sends nothing without a selection', () => {
    expect(preActionDecision(select('check_fold', betting()), { ...free, discard: { max: 3 } })).toBeNull();
    expect(preActionDecision(null, free)).toBeNull();
  });

  it('never answers an engine-blind showdown: Check/Fold would muck a hand the player may show', () => {
    const show = validActions({ fold: true, check: false, call: null, raise: null, all_in: null, show: { cards: 2 } });
    for (const kind of kinds(betting())) expect(preActionDecision(select(kind, betting()), show), kind).toBeNull();
    expect(preActionDecision(select('call', betting({ currentBet: 60, heroBet: 20 })), show)).toBeNull();
    // The same turn without `show` is an ordinary one: Check/Fold folds.
    const { show: _, ...plain } = show;
    expect(preActionDecision(select('check_fold', betting()), plain)).toEqual({ action: 'fold' });
  });
});
