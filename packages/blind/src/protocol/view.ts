/**
 * What one viewer of an engine-blind hand is sent: the public state, and the shares of hole cards only
 * to the cards' owner. The shares of a hole card are not enough to read it without the owner's own
 * share, which never leaves the owner; sending them to the owner alone is the protocol's choice all the
 * same (no one else needs them).
 */
import type { Ciphertext, Hex } from '../crypto/index.js';
import {
  owing,
  shuffler,
  type BlindFailure,
  type BlindHandState,
  type BlindPhase,
  type BlindPosition,
} from './hand.js';

export interface BlindPositionView extends BlindPosition {
  readonly position: number;
  /**
   * Seat → share (the point D) held for this position: every share of a board card or of a shown
   * card; of a hole card, only in its owner's view.
   */
  readonly shares: Readonly<Record<string, Hex>>;
}

export interface BlindView {
  readonly tableId: string;
  readonly handId: string;
  readonly seats: readonly number[];
  readonly lambda: number;
  readonly phase: BlindPhase;
  readonly keys: Readonly<Record<string, Hex>>;
  readonly jointKey: Hex | null;
  readonly deck: readonly Ciphertext[];
  readonly shuffled: number;
  /** Whose shuffle is owed, while shuffling. */
  readonly shuffler: number | null;
  readonly deadline: number | null;
  readonly positions: readonly BlindPositionView[];
  /** What the viewer itself still owes (a seated participant only). */
  readonly owed: { readonly key: boolean; readonly shuffle: boolean; readonly positions: readonly number[] } | null;
  readonly failure: BlindFailure | null;
}

/** The view for `viewer`: a participant's seat, or null for a spectator (and for logs). */
export function blindView(state: BlindHandState, viewer: number | null): BlindView {
  const positions: BlindPositionView[] = [];
  for (const [key, p] of Object.entries(state.positions)) {
    const position = Number(key);
    const held = state.shares[position] ?? {};
    const open = p.to === 'board' || p.card !== undefined || p.to === viewer;
    positions.push({
      position,
      to: p.to,
      due: p.due,
      ...(p.card === undefined ? {} : { card: p.card }),
      shares: open ? { ...held } : {},
    });
  }
  positions.sort((a, b) => a.position - b.position);
  const participant = viewer !== null && state.setup.seats.includes(viewer);
  return {
    tableId: state.setup.tableId,
    handId: state.setup.handId,
    seats: state.setup.seats,
    lambda: state.setup.lambda,
    phase: state.phase,
    keys: state.keys,
    jointKey: state.jointKey,
    deck: state.deck,
    shuffled: state.shuffled,
    shuffler: shuffler(state) ?? null,
    deadline: state.deadline,
    positions,
    owed: participant ? (owing(state).get(viewer) ?? { key: false, shuffle: false, positions: [] }) : null,
    failure: state.failure,
  };
}
