// The raise control's arithmetic: which wager the hero may make, the legal range, the ½-pot and pot
// sizes, and clamping whatever the player typed or dragged into that range. The server decides what
// is legal (valid_actions); this only keeps the control inside it so a click never sends a refusal.
import type { ValidActionsView, WagerRangeView } from '@felt/protocol';

export const WagerKind = { BET: 'bet', RAISE: 'raise', COMPLETE: 'complete' } as const;
export type WagerKind = (typeof WagerKind)[keyof typeof WagerKind];

export interface Wager {
  readonly kind: WagerKind;
  /** Smallest legal "to" amount (the round total after the action). */
  readonly min: number;
  readonly max: number;
  /** When present, the only legal amounts (fixed limit); otherwise any whole number in min..max. */
  readonly choices: readonly number[] | null;
  /** The "to" amount that puts the whole stack in. */
  readonly allInTo: number;
}

/** The aggressive option on offer, if any: a bet, a raise, or a Stud completion. */
export function wagerOf(va: ValidActionsView): Wager | null {
  const pick = (kind: WagerKind, range: WagerRangeView | null): Wager | null =>
    range === null
      ? null
      : {
          kind,
          min: range.min,
          max: range.max,
          choices: range.choices && range.choices.length > 0 ? [...range.choices].sort((a, b) => a - b) : null,
          allInTo: va.player_bet + va.stack,
        };
  return pick(WagerKind.RAISE, va.raise) ?? pick(WagerKind.BET, va.bet) ?? pick(WagerKind.COMPLETE, va.complete);
}

/** A fixed amount (fixed limit, or a range that has narrowed to one number): no slider needed. */
export function isFixedWager(w: Wager): boolean {
  return w.min === w.max || (w.choices !== null && w.choices.length === 1);
}

/**
 * Clamps any input to a legal "to" amount: whole chips within min..max, or the nearest legal choice
 * (ties go to the smaller, the cautious side). NaN and empty input fall back to the minimum.
 */
export function clampWager(amount: number, w: Wager): number {
  if (!Number.isFinite(amount)) return w.choices?.[0] ?? w.min;
  if (w.choices !== null) {
    let best = w.choices[0]!;
    for (const c of w.choices) if (Math.abs(c - amount) < Math.abs(best - amount)) best = c;
    return best;
  }
  return Math.min(w.max, Math.max(w.min, Math.floor(amount)));
}

/**
 * The "to" amount of a raise (or bet) of `fraction` of the pot, per the usual table rule: first the
 * call is added to the pot, then the raise is that fraction of it. `pot` in valid_actions already
 * counts this round's bets. The result is clamped into the legal range, so in pot limit "Pot" is the
 * maximum and in no limit it is capped by the stack.
 */
export function potSizedTo(va: ValidActionsView, fraction: number, w: Wager): number {
  const toCall = Math.max(0, va.current_bet - va.player_bet);
  const raiseBy = Math.floor((va.pot + toCall) * fraction);
  return clampWager(va.current_bet + raiseBy, w);
}

/** The keyboard step for the amount: one big blind (or small bet), at least one chip. */
export function wagerStep(bigUnit: number): number {
  return Math.max(1, Math.floor(bigUnit));
}

/** Whether the sizing buttons make sense: only with a real range (no limit, pot limit). */
export function hasSizingButtons(w: Wager): boolean {
  return w.choices === null && w.max > w.min;
}

/** Whether this action would commit the player's whole stack, which asks for a confirmation first. */
export function isAllIn(va: ValidActionsView, action: 'call' | 'wager' | 'all_in', to?: number): boolean {
  if (action === 'all_in') return true;
  if (action === 'call') return va.call !== null && va.stack > 0 && va.call >= va.stack;
  return to !== undefined && va.stack > 0 && to >= va.player_bet + va.stack;
}
