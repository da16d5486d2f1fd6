import { CodedError } from '@felt/engine';
import type { CashOutJob, CompletedHandJob, LiveTableMoney, VoidedHandJob } from '@felt/platform';
import type { HandSink, SeatedMember, TableSeed, TableSeedSource } from '../ports.js';
import type { TournamentReport } from '../tournament/contracts.js';

/**
 * The money side of a table (docs/dev/money-flows.md, "What the table worker does"). Every field
 * here is optional on top of the base ports, so a worker without Postgres (unit tests) still runs
 * tables; it then sends no cash-outs and seats bots without funding them.
 */

/** A member as @felt/db `loadTableSeed` gives it. */
export interface MoneyMember extends SeatedMember {
  /** Names the seat in cash-out request ids (`leave-<membershipId>`, `room-close-<membershipId>`). */
  readonly membershipId?: string;
  /** Top-ups paid in that the table has not added yet, oldest first. */
  readonly pendingTopUps?: readonly { readonly id: string; readonly amount: number }[];
  /** The player asked the lobby to leave (worker-mode cash-out). */
  readonly leaveRequested?: boolean;
  /** A worker's bot, seated through `seatBot` (its user name is `bot-<id>`). */
  readonly bot?: boolean;
}

export interface MoneySeed extends TableSeed {
  /** `rooms.last_hand_no`: hands 1..lastHandNo are persisted. */
  readonly lastHandNo?: number;
  /**
   * A tournament's table (`tournament_tables`): no room rows, no money; the director seats its
   * players and tells it when to deal (table/tournament-table.ts).
   */
  readonly tournament?: { readonly tournamentId: string };
  readonly members: readonly MoneyMember[];
}

export interface BotSeatRequest {
  readonly roomId: string;
  /** A lowercase uuid: it becomes the bot's user id. */
  readonly botId: string;
  readonly seat: number;
  readonly buyIn: number;
  /**
   * The lease epoch the worker serves the table under (docs/architecture.md, "Ownership and
   * failover"): the write is refused with the ports' StaleEpochError when a newer owner has written
   * for the room. Absent: unfenced (a worker without leases, as in single-process tests).
   */
  readonly epoch?: number;
}

/** Why the house bankroll staked no bot (@felt/db BankrollRefusal): the table says so to its players. */
export type BotFundingRefusal = 'bankroll_empty' | 'room_limit' | 'daily_limit';

/** The house bankroll would not stake the bot: nothing was written; the table asks again later. */
export class BotFundingRefusedError extends CodedError<'bot_funding_refused'> {
  override readonly name = 'BotFundingRefusedError';
  constructor(
    readonly reason: BotFundingRefusal,
    message: string,
  ) {
    super('bot_funding_refused', message);
  }
}

/** The seed source, and where bots become funded users (@felt/db `seatBot`). */
export interface MoneySeedSource extends TableSeedSource {
  load(tableId: string): Promise<MoneySeed | null>;
  /**
   * Creates (once) the bot's user, funds its wallet and seats it with a membership and a buy-in.
   * Absent: bots sit with chips the ledger does not know (a table without Postgres).
   */
  seatBot?(req: BotSeatRequest): Promise<{ membershipId: string }>;
  /**
   * Claims the room for a lease epoch before the table is served (`rooms.owner_epoch` rises to it),
   * so that writes of older epochs are refused from now on. Throws StaleEpochError when the room
   * already saw a higher one, or the same one for a `fresh` lease (just acquired: Redis handed the
   * epoch out twice). Resolves with the room's epoch before the claim: above 0 when some worker
   * served the table before. Absent: nothing to fence (a table without Postgres).
   */
  claimEpoch?(roomId: string, epoch: number, fresh: boolean): Promise<number>;
  /**
   * A table built again from the room rows after it was served (its checkpoint lost) seals the
   * room under its epoch at the hand it goes on from: the persister then refuses older epochs'
   * hands numbered after it (@felt/db sealRoomRebuild). Resolves false, changing nothing, when the
   * rows no longer end at `lastHandNo` (read them again). Throws StaleEpochError like claimEpoch.
   * Absent: nothing to seal (a table without Postgres).
   */
  sealRebuild?(roomId: string, epoch: number, lastHandNo: number): Promise<boolean>;
}

/** Completed hands and cash-out requests, onto the hands queue (job ids make a re-send a no-op). */
export interface MoneyJobSink extends HandSink {
  /** `cash_out.requested` (@felt/platform cashOutJobSchema / cashOutJobOptions). */
  cashOut?(job: CashOutJob): Promise<void>;
  /** `hand.voided` (@felt/platform voidedHandJobSchema / voidedHandJobOptions): the ledger records a void. */
  voided?(job: VoidedHandJob): Promise<void>;
  /** How many of the room's completed hands wait in the queue (waiting, delayed or active). */
  pendingHandsOf?(roomId: string): Promise<number>;
}

/** A job waiting in the table's outbox (kept in the checkpoint until it is in the queue). */
export type OutboxJob =
  | { readonly kind: 'hand'; readonly job: CompletedHandJob }
  /** A tournament table's hand report, for its director (not the hands queue). */
  | { readonly kind: 'tournament_report'; readonly job: TournamentReport }
  | { readonly kind: 'voided'; readonly job: VoidedHandJob }
  | { readonly kind: 'cash_out'; readonly job: CashOutJob };

export type { LiveTableMoney };
