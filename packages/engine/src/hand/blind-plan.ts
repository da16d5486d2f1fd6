import type { GameRules } from '../games/types.js';
import { orderFromButton } from './seats.js';
import { verifyBlindGame } from './setup.js';

/**
 * Which deck index goes where in a blind hand: the contract between the engine's dealing and the
 * blind-dealing protocol, which must unmask exactly these indices for each seat and each street.
 */
export interface BlindDealPlan {
  /** Each seat's hole cards, in dealing order (clockwise from the first seat after the button). */
  readonly hole: readonly { readonly seat: number; readonly indices: readonly number[] }[];
  /** Each street's board cards, in street order (streets without board cards are left out). */
  readonly board: readonly { readonly street: number; readonly indices: readonly number[] }[];
}

/**
 * The deck indices a blind hand of `rules` deals to `seats` (the dealt-in seats) with the button at
 * `button`: the same allocation as standard dealing, with no burns. Hole cards go one at a time round
 * the table starting left of the button, then each street's board cards follow in order. A blind game
 * deals every hole card before the first betting round, so folds never change the plan.
 */
export function blindDealPlan(rules: GameRules, seats: readonly number[], button: number): BlindDealPlan {
  verifyBlindGame(rules);
  const order = orderFromButton(seats, button);
  let next = 0;
  const hole = order.map((seat) => ({ seat, indices: [] as number[] }));
  const board: { street: number; indices: number[] }[] = [];
  rules.streets.forEach((street, index) => {
    for (let round = 0; round < street.hole.length; round++) for (const h of hole) h.indices.push(next++);
    if (street.board > 0) board.push({ street: index, indices: Array.from({ length: street.board }, () => next++) });
  });
  return { hole, board };
}
