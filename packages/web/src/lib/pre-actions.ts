// Pre-actions: a choice the player makes before their turn ("Check/Fold", "Check", "Call N",
// "Call any") that the client sends by itself when your_turn arrives. Nothing of this reaches the
// server as such: it is a client choice, sent as an ordinary action within the turn's valid_actions
// and with the turn's token, so the engine's rules are unchanged. Pure: the table controller keeps
// the selection and feeds it every snapshot and every turn.
//
// The rules:
//   - Offered only while a betting round is on and the player is in the hand, not folded, not
//     all-in and with chips behind (and never during their own turn: the action bar is shown then).
//   - "Check" only when there is nothing to call; "Call N" only when there is (N is what calling
//     costs now, capped by the stack); "Check/Fold" and "Call any" always.
//   - At most one is selected. It is cleared when:
//       * a new hand starts, or a new street (betting round) begins: every choice, "Call any"
//         included, lasts for the street it was made on, as in most poker clients;
//       * the amount to call changes (someone bets or raises): "Check" is cleared when a bet appears,
//         "Call N" when N is no longer the cost; "Check/Fold" and "Call any" survive bet changes;
//       * the choices are no longer offered (the player folded, is all-in, the hand is over);
//       * the turn arrives: the choice is used (or found not to apply) and cleared either way.
//   - What the turn sends, only ever an action its valid_actions allow:
//       * Check/Fold: check if checking is legal, else fold;
//       * Check: check if legal, else nothing (the player decides);
//       * Call N: call if the call still costs N (or all-in when the server offers calling N only as
//         an all-in), else nothing;
//       * Call any: check when there is nothing to call, else call, else all-in when that is how the
//         server offers the call (an all-in no bigger than the bet).
//     A draw round's turn (discards) and an engine-blind showdown's (show or muck) are never answered
//     by a pre-action: Check/Fold must not muck a hand the player may want to show.
import type { Decision } from '@felt/client';
import type { TableState, ValidActionsView } from '@felt/protocol';

export const PreActionKind = {
  CHECK_FOLD: 'check_fold',
  CHECK: 'check',
  CALL: 'call',
  CALL_ANY: 'call_any',
} as const;
export type PreActionKind = (typeof PreActionKind)[keyof typeof PreActionKind];

/** Where the hero stands before their turn, when pre-actions are offered at all. */
export interface PreActionSpot {
  readonly handId: string;
  /** The betting round (the snapshot's street), so a new street clears the selection. */
  readonly street: string;
  /** What calling costs now: the bet to match less the hero's bet this round, capped by the stack. */
  readonly toCall: number;
  /** Calling puts the whole stack in. */
  readonly callIsAllIn: boolean;
}

export interface PreActionOption {
  readonly kind: PreActionKind;
  /** Call N: N; 0 for the others. */
  readonly amount: number;
}

/** The selected pre-action and the spot it was chosen in. */
export interface PreActionSelection {
  readonly kind: PreActionKind;
  readonly handId: string;
  readonly street: string;
  /** The cost of calling when it was chosen (for Call N, N). */
  readonly toCall: number;
}

/** The hero's spot from a snapshot, or null when no pre-action is offered. */
export function preActionSpot(state: TableState | null): PreActionSpot | null {
  if (state === null || state.phase !== 'betting' || state.hand_id === undefined) return null;
  const heroSeat = state.hero?.seat;
  if (heroSeat === undefined) return null;
  const seat = state.seats.find((s) => s.seat === heroSeat);
  if (seat === undefined || !seat.in_hand || seat.folded === true || seat.all_in === true || seat.stack <= 0) {
    return null;
  }
  const owed = Math.max(0, state.current_bet - seat.bet);
  const toCall = Math.min(owed, seat.stack);
  return { handId: state.hand_id, street: state.street ?? '', toCall, callIsAllIn: owed > 0 && owed >= seat.stack };
}

/** The choices offered in a spot, in the order they are shown. */
export function preActionOptions(spot: PreActionSpot | null): PreActionOption[] {
  if (spot === null) return [];
  const out: PreActionOption[] = [{ kind: PreActionKind.CHECK_FOLD, amount: 0 }];
  if (spot.toCall === 0) out.push({ kind: PreActionKind.CHECK, amount: 0 });
  else out.push({ kind: PreActionKind.CALL, amount: spot.toCall });
  out.push({ kind: PreActionKind.CALL_ANY, amount: 0 });
  return out;
}

/**
 * Clicking a choice: selects it, or deselects it when it is the one selected. A choice that is not
 * offered in this spot selects nothing (and leaves the selection as it was).
 */
export function togglePreAction(
  current: PreActionSelection | null,
  kind: PreActionKind,
  spot: PreActionSpot | null,
): PreActionSelection | null {
  if (spot === null || !preActionOptions(spot).some((o) => o.kind === kind)) return current;
  if (current !== null && current.kind === kind && isSameSpot(current, spot)) return null;
  return { kind, handId: spot.handId, street: spot.street, toCall: spot.toCall };
}

function isSameSpot(sel: PreActionSelection, spot: PreActionSpot): boolean {
  return sel.handId === spot.handId && sel.street === spot.street;
}

/** The selection after a new snapshot: kept, or null when the rules above clear it. */
export function keepPreAction(sel: PreActionSelection | null, spot: PreActionSpot | null): PreActionSelection | null {
  if (sel === null || spot === null || !isSameSpot(sel, spot)) return null;
  switch (sel.kind) {
    case PreActionKind.CHECK:
      return spot.toCall === 0 ? sel : null;
    case PreActionKind.CALL:
      return spot.toCall === sel.toCall ? sel : null;
    case PreActionKind.CHECK_FOLD:
    case PreActionKind.CALL_ANY:
      return sel;
  }
}

/** The all-in the server offers in place of a call: one that does not go beyond the bet to match. */
function allInCall(va: ValidActionsView): number | null {
  if (va.all_in === null || va.all_in > va.current_bet) return null;
  return va.all_in - va.player_bet;
}

/** What the selection sends when the turn arrives with these valid actions, or null for nothing. */
export function preActionDecision(sel: PreActionSelection | null, va: ValidActionsView): Decision | null {
  if (sel === null || va.discard !== null || va.show !== undefined) return null;
  switch (sel.kind) {
    case PreActionKind.CHECK_FOLD:
      if (va.check) return { action: 'check' };
      return va.fold ? { action: 'fold' } : null;
    case PreActionKind.CHECK:
      return va.check ? { action: 'check' } : null;
    case PreActionKind.CALL:
      if (va.call !== null) return va.call === sel.toCall ? { action: 'call' } : null;
      return allInCall(va) === sel.toCall ? { action: 'all_in' } : null;
    case PreActionKind.CALL_ANY:
      if (va.check) return { action: 'check' };
      if (va.call !== null) return { action: 'call' };
      return allInCall(va) !== null ? { action: 'all_in' } : null;
  }
}
