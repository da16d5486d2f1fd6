import { ApiErrorCode, LobbyError } from './errors.js';
import { RoomChatSetting, type ChatChanges } from './rooms/chat-setting.js';
import { RoomClosing } from './rooms/closing.js';
import { RoomQueries } from './rooms/queries.js';
import { RoomStore } from './rooms/room-store.js';
import { Seating } from './rooms/seating.js';
import { SeatStacks } from './rooms/stacks.js';
import { RoomWaitlists } from './rooms/waitlist.js';
import type { LobbyWaitlistEntry } from '@felt/protocol';
import type {
  CloseResult,
  LeaveResult,
  QuickJoinFilter,
  RoomMember,
  RoomsOptions,
  RoomSummary,
  SeatRequest,
  SeatResult,
  TopUpResult,
} from './rooms/types.js';

export type { ChatChanges } from './rooms/chat-setting.js';
export {
  CashOutMode,
  type CloseResult,
  type JoinGuard,
  type LeaveResult,
  type QuickJoinFilter,
  type RoomMember,
  type RoomsOptions,
  type RoomSummary,
  type SeatRequest,
  type SeatResult,
  type TopUpResult,
} from './rooms/types.js';

/**
 * Rooms, seats and buy-ins. Every change to a room's memberships runs in one transaction that
 * first locks the room row, so the joins, leaves and closings of one room are serialised: seat
 * choice, "full" and "already seated" are decided without races, and the partial unique indexes
 * on memberships stand behind them. Membership events are published after the commit.
 *
 * The work is done in rooms/: seating.ts (create, joins), stacks.ts (leave, top-up), closing.ts,
 * queries.ts (list, get, a user's seats), chat-setting.ts (the host's chat switch), waitlist.ts (the
 * lines for full rooms and their seat offers), on top of room-store.ts (the lock, the transaction,
 * config reads, events).
 */
export class Rooms {
  private readonly seating: Seating;
  private readonly stacks: SeatStacks;
  private readonly closing: RoomClosing;
  private readonly queries: RoomQueries;
  private readonly chat: RoomChatSetting;
  private readonly waitlists: RoomWaitlists;

  constructor(o: RoomsOptions) {
    const store = new RoomStore(o);
    this.waitlists = new RoomWaitlists(o, store);
    this.seating = new Seating(o, store, this.waitlists);
    this.stacks = new SeatStacks(o, store);
    this.closing = new RoomClosing(o, store);
    this.queries = new RoomQueries(o, store);
    this.chat = new RoomChatSetting(store);
  }

  /** Validates the config, creates the room with a fresh code, and seats the host if asked. */
  create(
    hostId: string,
    rawConfig: unknown,
    sit?: SeatRequest,
  ): Promise<{ room: RoomSummary; seat: SeatResult | null }> {
    return this.seating.create(hostId, rawConfig, sit);
  }

  /** Takes a seat in the open room with this code; every miss answers room_not_found. */
  joinByCode(userId: string, code: string, req: SeatRequest, address: string): Promise<SeatResult> {
    return this.seating.joinByCode(userId, code, req, address);
  }

  /** Takes a seat in the open room with this id (the worker's table id). */
  joinById(userId: string, roomId: string, req: SeatRequest): Promise<SeatResult> {
    return this.seating.joinById(userId, roomId, req);
  }

  /** Takes a seat in the first open listed room that matches and can seat the user. */
  quickJoin(userId: string, filter: QuickJoinFilter, buyInChips?: number): Promise<SeatResult> {
    return this.seating.quickJoin(userId, filter, buyInChips);
  }

  /** Gives up the seat: paid at once (ledger mode) or at the table's next hand boundary (worker mode). */
  leave(userId: string, roomId: string): Promise<LeaveResult> {
    return this.stacks.leave(userId, roomId);
  }

  /** A rebuy or top-up between hands, from the wallet. */
  topUp(userId: string, roomId: string, amount: number, idempotencyKey?: string): Promise<TopUpResult> {
    return this.stacks.topUp(userId, roomId, amount, idempotencyKey);
  }

  /** Deletes a room recoverably: the tombstone, then the refunds, then closed. */
  close(userId: string, roomId: string): Promise<CloseResult> {
    return this.closing.close(userId, roomId);
  }

  /** The first step of close(): the tombstone. Exposed so a test can stop there, as a crash would. */
  beginClose(userId: string, roomId: string): Promise<void> {
    return this.closing.beginClose(userId, roomId);
  }

  /** Carries on with every deletion a crash interrupted. */
  finishClosingRooms(): Promise<number> {
    return this.closing.finishClosingRooms();
  }

  /** Ledger mode: refund each seat, then close. `afterRefund` is a test hook (a crash point). */
  finishClose(roomId: string, afterRefund?: (userId: string) => void): Promise<CloseResult> {
    return this.closing.finishClose(roomId, afterRefund);
  }

  /**
   * Host only: turns the room's chat on or off, and spectators' chat, mid-session; answers with the
   * room as it is now.
   */
  async setChat(
    userId: string,
    roomId: string,
    changes: ChatChanges,
  ): Promise<{ room: RoomSummary; members: RoomMember[] }> {
    await this.chat.set(userId, roomId, changes);
    const found = await this.queries.get(roomId);
    if (!found) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no such room');
    return found;
  }

  /** Joins the room's waitlist (the room has no seat free for the player); answers with their place. */
  joinWaitlist(userId: string, roomId: string): Promise<LobbyWaitlistEntry> {
    return this.waitlists.join(userId, roomId);
  }

  /** Leaves the room's waitlist; a seat offered to the player goes to the next in line. */
  leaveWaitlist(userId: string, roomId: string): Promise<void> {
    return this.waitlists.leave(userId, roomId);
  }

  /** The rooms the player waits at. */
  waitlistsOf(userId: string): Promise<LobbyWaitlistEntry[]> {
    return this.waitlists.mine(userId);
  }

  /** One round of the waitlist keeper: lapsed offers go, free seats are offered (main runs it every second). */
  keepWaitlists(): Promise<number> {
    return this.waitlists.keep();
  }

  /** Open listed rooms, oldest first, optionally filtered. */
  list(filter: QuickJoinFilter, pageSize: number): Promise<RoomSummary[]> {
    return this.queries.list(filter, pageSize);
  }

  /** One room (closed ones included) with its members. */
  get(roomId: string): Promise<{ room: RoomSummary; members: RoomMember[] } | null> {
    return this.queries.get(roomId);
  }

  /** The user's active seats, for GET /api/me. */
  seatsOf(userId: string): Promise<{ roomId: string; code: string; seat: number; stack: bigint }[]> {
    return this.queries.seatsOf(userId);
  }
}
