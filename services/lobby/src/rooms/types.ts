/** The rooms service's options and the shapes its operations take and return. */
import type { PrismaClient } from '@felt/db';
import type { Logger } from '@felt/platform';
import type { BettingLimit, GameType, RoomConfig } from '@felt/protocol';
import type { Clock, RoomEvent, RoomEventPublisher, WaitlistNotices } from '../ports.js';
import type { Attempt } from '../throttle.js';

/** Counts joins by code that find no room the user can take (Throttles, in Redis). */
export interface JoinGuard {
  joinByCode(userId: string, address: string): Promise<Attempt>;
  /** Counts a waitlist join or leave; refuses (rate_limited) past FELT_WAITLIST_CHANGES_PER_USER a minute. */
  waitlistChange(userId: string): Promise<Attempt>;
}

/**
 * Who says what a leaving player's stack is (docs/dev/money-flows.md). `ledger`: no table worker
 * moves chips yet, so the escrow is the stack and the lobby pays it at once. `worker`: the table
 * worker lets the player go at a hand boundary and sends the final stack; the persister pays it
 * once every earlier hand is persisted. Both go through @felt/db's requestCashOut.
 */
export const CashOutMode = { LEDGER: 'ledger', WORKER: 'worker' } as const;
export type CashOutMode = (typeof CashOutMode)[keyof typeof CashOutMode];

export interface RoomsOptions {
  readonly prisma: PrismaClient;
  readonly cashOutMode: CashOutMode;
  readonly events: RoomEventPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called once per published or failed event, for metrics. */
  readonly onPublish?: (event: RoomEvent, ok: boolean) => void;
  /** Open rooms one user may host at once (FELT_MAX_OPEN_ROOMS_PER_USER). */
  readonly maxOpenRoomsPerUser: number;
  readonly joinGuard: JoinGuard;
  /** Where waitlist messages go (absent: players learn of changes from GET /api/waitlists only). */
  readonly waitlistNotices?: WaitlistNotices;
}

export interface SeatRequest {
  /** 1-based; omitted: the first free seat. */
  readonly seat?: number | undefined;
  /** Chips moved from the wallet to the table; must lie in the room's buy-in range. */
  readonly buyIn: number;
  /**
   * A client's Idempotency-Key: repeating the request returns the first outcome instead of a
   * second seat or an already_seated refusal.
   */
  readonly idempotencyKey?: string | undefined;
}

export interface SeatResult {
  readonly roomId: string;
  readonly code: string;
  readonly seat: number;
  readonly stack: bigint;
  readonly wallet: bigint;
  readonly replayed: boolean;
}

export interface RoomSummary {
  readonly id: string;
  readonly code: string;
  readonly status: 'open' | 'closing' | 'closed';
  readonly hostId: string;
  readonly config: RoomConfig;
  readonly players: number;
  readonly createdAt: Date;
  /** Players waiting for a seat. */
  readonly waitlist: number;
}

export interface RoomMember {
  readonly userId: string;
  readonly name: string;
  readonly seat: number;
  readonly stack: bigint;
}

export interface QuickJoinFilter {
  readonly game?: GameType | undefined;
  readonly limit?: BettingLimit | undefined;
  /** As stakesLabel shows it: "1/2", or "10/20" in the Stud family. */
  readonly stakes?: string | undefined;
  /** Practice-chip rooms only; otherwise real-chip rooms only. */
  readonly practice?: boolean | undefined;
}

export interface LeaveResult {
  /** left: the stack is back in the wallet; leaving: the table lets the player go at a hand boundary. */
  readonly status: 'left' | 'leaving';
  readonly refunded: bigint;
  readonly wallet: bigint;
}

export interface TopUpResult {
  readonly roomId: string;
  readonly topUpId: string;
  readonly amount: bigint;
  /** applied: in the stack now; pending: the table adds it at the next hand boundary. */
  readonly status: 'pending' | 'applied' | 'cashed_out';
  /** Chips at the table: the stack after every persisted hand plus pending top-ups. */
  readonly escrow: bigint;
  readonly wallet: bigint;
  readonly replayed: boolean;
}

export interface CloseResult {
  readonly status: 'closed' | 'closing';
  readonly refunds: { userId: string; amount: bigint }[];
}
