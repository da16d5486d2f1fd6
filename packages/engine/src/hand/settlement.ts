import type { Card } from '../cards.js';
import type { AwardSide } from './operations.js';
import type { RakeRule } from './rake.js';

/**
 * The money outcome of a hand, as the ledger and the persister consume it. Everything is integer chips
 * and it balances: `sum(players[].net) + rake.amount === 0`.
 */
export interface Settlement {
  readonly handId: string;
  /** True when two or more hands were judged. */
  readonly showdown: boolean;
  readonly pots: readonly PotSettlement[];
  /** Uncalled bets handed back before the pots were formed (never raked). */
  readonly uncalled: readonly { readonly seat: number; readonly amount: number }[];
  readonly rake: {
    readonly amount: number;
    readonly rule: RakeRule;
    readonly bps: number;
    readonly contested: number;
    readonly capped: boolean;
  };
  readonly players: readonly PlayerSettlement[];
  /** Judged hands at showdown, in seat order. */
  readonly hands: readonly JudgedHand[];
}

export interface PotSettlement {
  readonly index: number;
  readonly amount: number;
  /** Live-contribution levels the pot covers: (from, to]. */
  readonly from: number;
  readonly to: number;
  /** Seats that could win the pot (dealt in, never folded, reached its level). */
  readonly eligible: readonly number[];
  readonly contested: boolean;
  readonly rake: number;
  readonly winners: readonly PotWinner[];
}

export interface PotWinner {
  readonly seat: number;
  readonly side: AwardSide;
  /** Share before rake. */
  readonly gross: number;
  /** Share after rake: what the seat receives from this pot. */
  readonly net: number;
}

export interface PlayerSettlement {
  readonly seat: number;
  readonly id: string;
  readonly startingStack: number;
  /** Chips put in (forced bets and wagers), uncalled returns excluded. */
  readonly contributed: number;
  readonly returned: number;
  /** Chips won from pots, after rake. */
  readonly won: number;
  readonly rakePaid: number;
  readonly finalStack: number;
  /** finalStack - startingStack. */
  readonly net: number;
  readonly folded: boolean;
}

export interface JudgedHand {
  readonly seat: number;
  /** One value per showdown side (high, then low); null when the hand does not qualify. */
  readonly values: readonly (number | null)[];
  readonly names: readonly (string | null)[];
  readonly best: readonly (readonly Card[] | null)[];
}
