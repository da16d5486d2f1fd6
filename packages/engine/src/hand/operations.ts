import type { Card } from '../cards.js';
import type { CardVisibility } from '../games/types.js';
import type { ForcedBetKind } from './setup.js';

/**
 * A hand is its list of operations. Player decisions (fold, check, call, bet, raise, show) are inputs;
 * everything else (posting, dealing, returns, reveals, awards) follows from the setup and the decisions,
 * so replaying the decisions against the setup must reproduce the whole list. Records are frozen.
 */
export type Operation =
  | PostOperation
  | DealHoleOperation
  | DealBoardOperation
  | StreetOperation
  | DrawRoundOperation
  | BringInOperation
  | DiscardOperation
  | ReshuffleOperation
  | FoldOperation
  | CheckOperation
  | CallOperation
  | BetOperation
  | RaiseOperation
  | ReturnOperation
  | ShowOperation
  | MuckOperation
  | AwardOperation
  | HandEndOperation;

export const OperationType = {
  POST: 'post',
  DEAL_HOLE: 'deal_hole',
  DEAL_BOARD: 'deal_board',
  STREET: 'street',
  DRAW_ROUND: 'draw_round',
  BRING_IN: 'bring_in',
  DISCARD: 'discard',
  RESHUFFLE: 'reshuffle',
  FOLD: 'fold',
  CHECK: 'check',
  CALL: 'call',
  BET: 'bet',
  RAISE: 'raise',
  RETURN: 'return',
  SHOW: 'show',
  MUCK: 'muck',
  AWARD: 'award',
  HAND_END: 'hand_end',
} as const;
export type OperationType = (typeof OperationType)[keyof typeof OperationType];

export interface PostOperation {
  readonly type: 'post';
  readonly seat: number;
  readonly kind: ForcedBetKind;
  /** Chips actually posted (less than the nominal amount when the stack is short). */
  readonly amount: number;
  readonly allIn: boolean;
}

export interface DealHoleOperation {
  readonly type: 'deal_hole';
  readonly street: number;
  readonly seat: number;
  readonly cards: readonly Card[];
  /** Per card: `up` cards are seen by everyone (Stud), `down` cards only by their owner. */
  readonly visibility: readonly CardVisibility[];
  /** Deck index of each card: every dealt card is recorded with its index, so a verifier can check it. */
  readonly indices: readonly number[];
  /** Set when the cards replace a draw's discards. */
  readonly draw?: true;
  /**
   * Blind dealing (`HandSetup.dealing: 'blind'`): the engine handed out deck indices only and nobody,
   * the server included, knows the cards; `cards` is then empty and `indices` (and `visibility`) give
   * the count. Absent in standard hands, so their logs are unchanged.
   */
  readonly unknown?: true;
}

export interface DealBoardOperation {
  readonly type: 'deal_board';
  readonly street: number;
  readonly cards: readonly Card[];
  readonly indices: readonly number[];
}

/** A betting round opens. `actor` is null when nobody can act (an all-in runout). */
export interface StreetOperation {
  readonly type: 'street';
  readonly street: number;
  readonly name: string;
  readonly actor: number | null;
}

/** A draw round opens (draw games): `actor` is the first player to discard or stand pat. */
export interface DrawRoundOperation {
  readonly type: 'draw_round';
  readonly street: number;
  readonly name: string;
  readonly actor: number;
}

/**
 * The discards went back into a new stub (docs/fairness.md, draw games): `atIndex` cards had been dealt,
 * `discards` are the cards put back in initial-deck order; the undealt rest of the stub goes in too.
 */
export interface ReshuffleOperation {
  readonly type: 'reshuffle';
  readonly atIndex: number;
  readonly discards: readonly Card[];
}

/** Set on a decision the table took for a player whose clock ran out. */
interface Decision {
  readonly seat: number;
  readonly timeout?: true;
}

/** Stud: the bring-in posted by the player whose door card is lowest (Razz: highest). */
export interface BringInOperation extends Decision {
  readonly type: 'bring_in';
  readonly amount: number;
  readonly allIn: boolean;
}

/** Draw games: the cards a player throws away (none: standing pat). Their replacements follow. */
export interface DiscardOperation extends Decision {
  readonly type: 'discard';
  readonly cards: readonly Card[];
}

export interface FoldOperation extends Decision {
  readonly type: 'fold';
}

export interface CheckOperation extends Decision {
  readonly type: 'check';
}

export interface CallOperation extends Decision {
  readonly type: 'call';
  /** Chips added by the call. */
  readonly amount: number;
  readonly allIn: boolean;
}

export interface BetOperation extends Decision {
  readonly type: 'bet';
  /** The player's total bet for the round after the action. */
  readonly to: number;
  /** Chips added by the action. */
  readonly amount: number;
  readonly allIn: boolean;
}

export interface RaiseOperation extends Decision {
  readonly type: 'raise';
  readonly to: number;
  readonly amount: number;
  readonly allIn: boolean;
  /** False for an all-in short of a full raise: it does not reopen the betting. */
  readonly full: boolean;
}

/** An uncalled bet goes back to its owner before the pots are formed (never raked). */
export interface ReturnOperation {
  readonly type: 'return';
  readonly seat: number;
  readonly amount: number;
}

export const RevealReason = {
  /** Every live hand is turned up before an all-in runout. */
  ALL_IN_RUNOUT: 'all_in_runout',
  LAST_AGGRESSOR: 'last_aggressor',
  /** No bet on the last street: the first live player after the button shows first. */
  FIRST_TO_SHOW: 'first_to_show',
  ALL_IN_REQUIRED: 'all_in_required',
  WINNER_REQUIRED: 'winner_required',
  /** The table shows every hand (`allowMuck: false` or `showAllHands`). */
  SHOW_ALL: 'show_all',
  /** Auto-muck is off, so a losing hand is tabled. */
  NO_AUTO_MUCK: 'no_auto_muck',
  /** The player chose to show. */
  VOLUNTARY: 'voluntary',
  AUTO_MUCK_LOSER: 'auto_muck_loser',
  /** Blind dealing: the player decrypted their hole cards at the showdown (an input, not a rule). */
  BLIND_SHOW: 'blind_show',
  /** Blind dealing: the player gave up their claim at the showdown, or their clock ran out. */
  BLIND_MUCK: 'blind_muck',
} as const;
export type RevealReason = (typeof RevealReason)[keyof typeof RevealReason];

export interface ShowOperation {
  readonly type: 'show';
  readonly seat: number;
  readonly cards: readonly Card[];
  readonly reason: RevealReason;
}

export interface MuckOperation {
  readonly type: 'muck';
  readonly seat: number;
  readonly reason: RevealReason;
  /** Blind dealing: the table mucked for a player whose clock ran out at the showdown. */
  readonly timeout?: true;
}

/** One pot paid: the settlement of that pot in the log. */
export interface AwardOperation {
  readonly type: 'award';
  readonly pot: number;
  readonly amount: number;
  readonly rake: number;
  readonly winners: readonly { readonly seat: number; readonly side: AwardSide; readonly amount: number }[];
}

export const AwardSide = { HIGH: 'high', LOW: 'low', UNCONTESTED: 'uncontested' } as const;
export type AwardSide = (typeof AwardSide)[keyof typeof AwardSide];

export interface HandEndOperation {
  readonly type: 'hand_end';
  readonly rake: number;
  /** Final stacks by seat, in seat order. */
  readonly stacks: readonly { readonly seat: number; readonly stack: number }[];
}

/** The decisions a replay feeds back in; every other operation must be regenerated identically. */
export function isDecision(
  op: Operation,
): op is
  FoldOperation | CheckOperation | CallOperation | BetOperation | RaiseOperation | BringInOperation | DiscardOperation {
  return (
    op.type === 'fold' ||
    op.type === 'check' ||
    op.type === 'call' ||
    op.type === 'bet' ||
    op.type === 'raise' ||
    op.type === 'bring_in' ||
    op.type === 'discard'
  );
}

export function isVoluntaryShow(op: Operation): op is ShowOperation {
  return op.type === 'show' && op.reason === 'voluntary';
}

/**
 * The other inputs a blind hand's replay feeds back (`HandSetup.dealing: 'blind'`): the board cards the
 * players decrypted (`deal_board`), the showdown's shows and mucks, and a show after the hand (which
 * carries the cards, since the engine never knew them). A standard hand has none.
 */
export function isBlindInput(op: Operation, setup: { readonly dealing?: 'standard' | 'blind' }): boolean {
  if (setup.dealing !== 'blind') return false;
  return (
    op.type === 'deal_board' ||
    (op.type === 'show' && (op.reason === 'blind_show' || op.reason === 'voluntary')) ||
    (op.type === 'muck' && op.reason === 'blind_muck')
  );
}

/** The hole cards of a `deal_hole` with the unknown ones (blind dealing) as null. */
export function dealtHoleCards(op: DealHoleOperation): readonly (Card | null)[] {
  return op.unknown ? op.indices.map(() => null) : op.cards;
}

/** Cards a viewer may not see are null. */
type Seen<T extends { readonly cards: readonly Card[] }> = Omit<T, 'cards'> & {
  readonly cards: readonly (Card | null)[];
};

/**
 * An operation as one viewer may see it (invariant 2: no other seat's unrevealed cards): another seat's
 * down cards and discards are null, and so are the dead cards a reshuffle put back. Up cards, the
 * board and everything shown at showdown are public.
 */
export type OperationView =
  | Exclude<Operation, DealHoleOperation | DiscardOperation | ReshuffleOperation>
  | Seen<DealHoleOperation>
  | Seen<DiscardOperation>
  | (Omit<ReshuffleOperation, 'discards'> & { readonly discards: readonly (Card | null)[] });

/**
 * The cards each seat showed, by seat: what every viewer learns once the show happens. Live play
 * knows none of them while the cards are dealt; a finished hand's history knows all of them.
 */
export type ShownCards = ReadonlyMap<number, ReadonlySet<Card>>;

/** Every card a `show` of `ops` turned face up, by seat. */
export function shownCards(ops: readonly Operation[]): ShownCards {
  const shown = new Map<number, Set<Card>>();
  for (const op of ops) {
    if (op.type !== 'show') continue;
    const cards = shown.get(op.seat) ?? new Set<Card>();
    for (const c of op.cards) cards.add(c);
    shown.set(op.seat, cards);
  }
  return shown;
}

/**
 * The one redaction rule for a hole card: `viewer` (a seat, or null for a spectator) sees it when it
 * is theirs, when it was dealt face up, or when its owner showed that very card. A card its owner
 * discarded stays hidden even if the owner showed the rest of the hand.
 */
export function seesHoleCard(
  viewer: number | null,
  owner: number,
  card: Card,
  faceUp: boolean,
  shown?: ShownCards,
): boolean {
  return owner === viewer || faceUp || (shown?.get(owner)?.has(card) ?? false);
}

/**
 * `op` as `viewer` may see it: a seat, or null for a spectator. `shown` adds what the viewer learnt
 * from later shows (see {@link viewOperationLog}); without it this is the view at the moment `op`
 * happened, which is what live play sends. Discards stay their owner's and reshuffled dead cards
 * nobody's either way.
 */
export function viewOperation(op: Operation, viewer: number | null, shown?: ShownCards): OperationView {
  switch (op.type) {
    case 'deal_hole':
      if (op.unknown) return { ...op, cards: dealtHoleCards(op) };
      if (op.seat === viewer) return op;
      return {
        ...op,
        cards: op.cards.map((c, i) => (seesHoleCard(viewer, op.seat, c, op.visibility[i] === 'up', shown) ? c : null)),
      };
    case 'discard':
      return op.seat === viewer ? op : { ...op, cards: op.cards.map(() => null) };
    case 'reshuffle':
      return { ...op, discards: op.discards.map(() => null) };
    default:
      return op;
  }
}

/**
 * A finished hand's whole log as `viewer` may see it afterwards: the live view of every operation,
 * plus the hole cards that their owners showed (hand history, replay and the OHH export).
 */
export function viewOperationLog(ops: readonly Operation[], viewer: number | null): OperationView[] {
  const shown = shownCards(ops);
  return ops.map((op) => viewOperation(op, viewer, shown));
}
