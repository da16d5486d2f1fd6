import type { WaitlistMessage } from '@felt/protocol';
/** A membership change (or the room's chat setting), published after the Postgres transaction that made it has committed. */
export interface RoomEvent {
  readonly room_id: string;
  /**
   * member_leaving: the player asked to leave and the table should let them go (worker cash-out
   * mode); top_up: chips wait in escrow for the table to add at the next hand boundary; chat_changed:
   * the host changed the room's chat setting (rooms.config), which the table takes at its refresh;
   * waitlist_changed: the room's waitlist grew or shrank (bots make way for waiting humans).
   */
  readonly type:
    'member_joined' | 'member_left' | 'member_leaving' | 'top_up' | 'room_closed' | 'chat_changed' | 'waitlist_changed';
  readonly user_id?: string;
}

/**
 * Tells table workers that a room's membership changed (`P room-events` in docs/dev/contracts.md),
 * so the owning worker refreshes that table's members. At most once: the database is the truth,
 * and a worker also reloads members when a table is created.
 */
export interface RoomEventPublisher {
  publish(event: RoomEvent): Promise<void>;
}

/**
 * Tells players what became of their place in a waitlist: each message goes to the user's live
 * lobby sockets (`P wallet:<userId>`, docs/dev/contracts.md). Best effort, like every event.
 */
export interface WaitlistNotices {
  send(messages: readonly { readonly userId: string; readonly message: WaitlistMessage }[]): Promise<void>;
}

/**
 * Where revoked sessions are listed for the gateways, which verify cookies without a database
 * call (`P revoked:<sid>`).
 */
export interface RevocationList {
  /** Lists the session as revoked until `expiresAt` (after which its token is invalid anyway). */
  revoke(sessionId: string, expiresAt: Date): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
}

/** Injected so tests can move time; production uses the system clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
