// The one place the page meets the SDK's engine-blind seat (packages/client/src/sdk/blind-seat.ts,
// docs/dev/engine-blind.md step 7): the player's side of each engine-blind hand at one table, which keys,
// shuffles and sends shares by itself, and is the only holder of the player's hole cards (the server
// never has them, and no snapshot carries them). The page needs three things of it: those cards, to
// draw them; a way to show them at the showdown; and its audit's verdict, to warn the player. The
// table controller asks `connectBlindSeat` for the seat of its session, reads it for the hand on the
// table, and draws again whenever it says something changed.
import type { TableSession } from '@felt/client';
import type { BlindAuditFailure } from '../lib/blind-dealing.js';

export type { BlindAuditFailure } from '../lib/blind-dealing.js';

/**
 * The player's engine-blind seat at one table, as the page uses it. Every method is about hand
 * `handId` only: a seat asked about a hand it did not take part in answers as for a hand with nothing
 * opened (no cards, no failure), so a stale answer can never draw one hand's cards in another.
 */
export interface BlindSeat {
  /**
   * The player's hole cards in hand `handId`, decrypted on this device, in dealing order (card codes
   * such as "As"); empty until they open (and for a hand this device did not take part in).
   */
  holeCards(handId: string): readonly string[];
  /**
   * Shows the player's hand at an engine-blind showdown, when the turn's `valid_actions.show` asks for
   * it: sends the player's own decryption shares of its hole positions (`blind_shares`). Resolves when
   * the table took them; rejects with the SDK's error (a refusal, a timeout) otherwise. Mucking is not
   * here: it is an ordinary `fold` action.
   */
  show(handId: string): Promise<unknown>;
  /**
   * The first step of hand `handId` this device's audit refused (a key, shuffle or share whose proof
   * does not verify, or a deck the table altered), or null. A seat that caught one stops answering, so
   * the hand fails at that step's deadline and is voided.
   */
  auditFailure(handId: string): BlindAuditFailure | null;
  /**
   * Calls `listener` whenever `holeCards` or `auditFailure` may have changed (cards opened, a refusal
   * recorded). Returns the function that stops it.
   */
  subscribe(listener: () => void): () => void;
}

/**
 * The engine-blind seat of a table session: the SDK's `session.blind` (@felt/client `BlindSeat`), seen
 * through the interface above. The SDK's seat holds one hand at a time (the one on the table), so an
 * answer about any other hand is "nothing opened".
 */
export function connectBlindSeat(session: TableSession): BlindSeat | null {
  const seat = session.blind;
  return {
    holeCards: (handId) => (seat.handId === handId ? seat.holeCards() : []),
    show: (handId) =>
      seat.handId === handId ? seat.show() : Promise.reject(new Error(`hand ${handId} is not the blind hand here`)),
    auditFailure: (handId) => {
      const f = seat.failure;
      return f !== null && f.handId === handId ? { step: f.step, seat: f.seat, detail: f.detail } : null;
    },
    subscribe: (listener) => {
      const offs = [
        seat.on('cards', () => listener()),
        seat.on('audit_failed', () => listener()),
        seat.on('status', () => listener()),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
  };
}

/** How a table controller finds its session's blind seat: {@link connectBlindSeat}, or a test's fake. */
export type BlindSeatSource = (session: TableSession) => BlindSeat | null;
