import type { Hand } from '@felt/engine';
import type { ValidActionsView } from '@felt/protocol';

/** The engine's valid actions in wire terms. */
export function validActionsView(hand: Hand, seat: number): ValidActionsView | null {
  const va = hand.validActions();
  if (va === null || va.seat !== seat) return null;
  const range = (r: { min: number; max: number; choices?: readonly number[] } | null) =>
    r === null ? null : { min: r.min, max: r.max, ...(r.choices !== undefined ? { choices: [...r.choices] } : {}) };
  const bringInDue = va.bringIn !== null;
  return {
    fold: va.fold,
    check: va.check,
    call: va.call,
    bet: bringInDue ? null : range(va.bet),
    raise: range(va.raise),
    all_in: hand.canAct(seat, { type: 'all_in' }) && va.discard === null ? va.allInTo : null,
    bring_in: va.bringIn,
    complete: bringInDue ? range(va.bet) : null,
    discard: va.discard ? { max: va.discard.max } : null,
    current_bet: va.currentBet,
    player_bet: va.playerBet,
    stack: va.stack,
    pot: va.pot,
    // An engine-blind showdown: show (blind_shares) or muck (fold).
    ...(va.showdown !== undefined ? { fold: true, show: { cards: va.showdown.cards } } : {}),
  };
}
