import type { Card, DeckKind } from '../cards.js';
import type { BetLimit } from '../betting/structure.js';

/**
 * A game is its rules, independent of the betting structure: which deck, what each street deals, how
 * hands are judged, which forced bets open the action and who acts first. Any game runs under any
 * {@link BetLimit}; the hand state machine reads only this description, so a variant is a new value of
 * this type, not new engine code.
 */
export interface GameRules {
  /** Stable identifier, used in setups, snapshots and exports. */
  readonly id: string;
  readonly name: string;
  readonly deck: DeckKind;
  readonly maxSeats: number;
  /** Blinds (with optional antes), a button blind (short deck), or a bring-in (stud). */
  readonly forcedBets: ForcedBetStyle;
  readonly streets: readonly StreetRules[];
  /** One side (high; low in Razz and 2-7), or high then low for the split games. */
  readonly showdown: readonly ShowdownSide[];
  readonly defaultLimit: BetLimit;
  /**
   * Index of the street that counts as "the flop" for no-flop-no-drop: the hand is raked only if it
   * reached this street (Hold'em: the flop; Stud: fourth street).
   */
  readonly rakeFromStreet: number;
  /** PHH variant code per betting structure; missing when PHH has no code for the combination. */
  readonly phhVariant: Readonly<Partial<Record<BetLimit, string>>>;
  /**
   * OHH `game_type`: the closest of OHH's types (Holdem, Omaha, OmahaHiLo, Stud, StudHiLo, Draw). When it
   * does not say the game by itself (Razz, Short Deck, PLO5), the export adds PHH-style extension fields.
   */
  readonly ohhGameType: string;
  /** Stud family: which door card brings in. The lowest in Stud (suits c < d < h < s), the highest in Razz. */
  readonly bringIn?: BringInCard;
}

export const BringInCard = {
  /** Stud: aces high, the lowest rank brings in; between equal ranks the lowest suit (clubs). */
  LOWEST: 'lowest',
  /** Razz: aces low, the highest rank (a king) brings in; between equal ranks the highest suit (spades). */
  HIGHEST: 'highest',
} as const;
export type BringInCard = (typeof BringInCard)[keyof typeof BringInCard];

export const ForcedBetStyle = {
  BLINDS: 'blinds',
  BUTTON_BLIND: 'button_blind',
  BRING_IN: 'bring_in',
} as const;
export type ForcedBetStyle = (typeof ForcedBetStyle)[keyof typeof ForcedBetStyle];

export const FirstToAct = {
  /** Preflop in blind games: the first player after the big blind. */
  AFTER_BIG_BLIND: 'after_big_blind',
  /** Post-flop, and preflop with a button blind: the first player after the button. */
  AFTER_BUTTON: 'after_button',
  /** Stud third street: the bring-in, then clockwise. */
  BRING_IN: 'bring_in',
  /** Stud later streets: the best visible high hand. */
  BEST_VISIBLE_HIGH: 'best_visible_high',
  /** Razz later streets: the best visible low hand. */
  BEST_VISIBLE_LOW: 'best_visible_low',
} as const;
export type FirstToAct = (typeof FirstToAct)[keyof typeof FirstToAct];

export const CardVisibility = { DOWN: 'down', UP: 'up' } as const;
export type CardVisibility = (typeof CardVisibility)[keyof typeof CardVisibility];

export interface StreetRules {
  /** Display and export name: preflop, flop, turn, river (or third … seventh). */
  readonly name: string;
  /** Cards dealt to each player at the start of the street, one entry per card, in dealing rounds. */
  readonly hole: readonly CardVisibility[];
  /** Community cards dealt at the start of the street. */
  readonly board: number;
  /** A draw round (discard and replace) precedes the betting. */
  readonly draw: boolean;
  /** Fixed-limit bet unit of the street. */
  readonly betUnit: 'small' | 'big';
  readonly firstToAct: FirstToAct;
  /** Fixed limit: an open pair among a live player's up cards lets any wager add the big bet (Stud's 4th). */
  readonly openPairBigBet?: boolean;
}

/**
 * How one side of the pot is judged. Values are comparable numbers where higher is better (a low side's
 * best low has the highest value).
 */
export interface ShowdownSide {
  readonly kind: 'high' | 'low';
  /** `null` when the hand does not qualify for this side (e.g. no 8-or-better low). */
  evaluate(hole: readonly Card[], board: readonly Card[]): number | null;
  describe(hole: readonly Card[], board: readonly Card[]): HandSummary | null;
}

/** What a showdown records about a judged hand (a subset of the evaluator's HandDescription). */
export interface HandSummary {
  readonly name: string;
  readonly best: readonly Card[];
}
