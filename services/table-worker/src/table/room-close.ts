import type { MoneySeed } from '../money/ports.js';
import type { BotSeats } from './bot-seats.js';
import type { Dealer } from './dealer.js';
import { ALL } from './emissions.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TurnClock } from './turn-clock.js';

/**
 * The room is closing (docs/dev/money-flows.md §4). A close never voids a hand (no player's choice
 * can undo one: docs/architecture.md, invariant 9): while a hand is played the table deals no other, the
 * hand finishes by the rules (the clock acts at once for anyone who left) and is recorded like any
 * other; then every seat and every member known only from the room rows is refunded with a
 * `room-close-<membershipId>` cash-out after that hand. Asked again (the lobby reminds while the
 * room is closing), the cash-outs of members the room still lists are sent again: the same job ids.
 */
export class RoomClose {
  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly bots: BotSeats,
    private readonly dealer: Dealer,
    private readonly clock: TurnClock,
    /** Brings the table to rest (the hand in progress plays on). */
    private readonly settle: (now: number) => void,
  ) {}

  close(seed: MoneySeed | null, now: number): void {
    const { lifecycle, engine, money, outbox } = this.ctx;
    if (!lifecycle.closed && this.dealer.liveHand !== null) {
      lifecycle.beginClosing(seed);
      this.clock.cancelNextHand();
      this.bots.dropRequests();
      // A table nobody watches still finishes the hand: the clock acts for whoever is gone.
      this.clock.thaw(now);
      this.settle(now);
      return;
    }
    const again = lifecycle.closed;
    // Only members the room still lists are refunded by the table: the others' seats were paid out
    // by the lobby itself (ledger mode), or the room is gone.
    const listed = new Map((seed?.members ?? []).map((m) => [m.userId, m]));
    if (!again) {
      lifecycle.markClosed();
      // Only a hand announced and not dealt yet (its seed commitment out, no card) is dropped here.
      this.dealer.dropPending();
      this.clock.endTurn();
      this.clock.cancelNextHand();
      this.bots.dropRequests();
      this.ctx.events.emit(ALL, { type: 'table_closed', table_id: this.ctx.tableId });
      for (const s of [...engine.seats()]) {
        // No hand is in progress: each stack is what the last recorded hand left, plus top-ups.
        const chips = engine.leave(s.seat) ?? s.stack + s.pendingChips;
        const m = listed.get(s.playerId);
        if (m !== undefined) this.seating.release(s.playerId, m.membershipId, chips, 'room_close', now);
      }
      // Funded bots never seated (their seat was not free yet) hold their buy-in.
      for (const m of this.seating.memberList().filter((x) => x.bot && listed.has(x.userId))) {
        this.seating.release(m.userId, m.membershipId, m.stack, 'room_close', now);
      }
    }
    if (seed === null) return;
    money.observe(seed.members);
    for (const m of seed.members) {
      const sent = money.releasedJob(m.membershipId);
      if (sent !== undefined) {
        // Asked again (the lobby reminds until the room is closed): the same job, a no-op if queued.
        if (again) outbox.push({ kind: 'cash_out', job: sent });
        continue;
      }
      // Known only from the room rows (never seated here): the rows' stack is theirs.
      this.seating.release(m.userId, m.membershipId, m.stack, 'room_close', now);
    }
  }

  /** The hand the close waited for is over: refund the seats and close now. */
  closeIfHandOver(now: number): void {
    const closingSeed = this.ctx.lifecycle.closingSeed;
    if (this.dealer.liveHand === null && this.ctx.engine.currentHandId === null && closingSeed !== undefined) {
      this.close(closingSeed, now);
    }
  }
}
