/**
 * Typed errors of @felt/db. Each has a stable `code`; services map codes to HTTP or gRPC statuses
 * and never show the message or cause to clients.
 */
export const DbErrorCode = {
  MIGRATION_CHECKSUM_MISMATCH: 'migration_checksum_mismatch',
  MIGRATION_FAILED: 'migration_failed',
  MIGRATION_UNFINISHED: 'migration_unfinished',
  LEDGER_INVALID: 'ledger_invalid',
  LEDGER_UNBALANCED: 'ledger_unbalanced',
  LEDGER_IMMUTABLE: 'ledger_immutable',
  PRACTICE_CHIPS_MIXED: 'practice_chips_mixed',
  INSUFFICIENT_FUNDS: 'insufficient_funds',
  IDEMPOTENCY_CONFLICT: 'idempotency_conflict',
  TRANSACTION_RETRIES_EXHAUSTED: 'transaction_retries_exhausted',
  HAND_INVALID: 'hand_invalid',
  HAND_CONFLICT: 'hand_conflict',
  HAND_NOT_READY: 'hand_not_ready',
  ESCROW_MISMATCH: 'escrow_mismatch',
  CASH_OUT_CONFLICT: 'cash_out_conflict',
  HISTORY_IMMUTABLE: 'history_immutable',
  STALE_EPOCH: 'stale_epoch',
  BANKROLL_REFUSED: 'bankroll_refused',
  SEAT_HELD: 'seat_held',
  TOURNAMENT_REFUSED: 'tournament_refused',
} as const;
export type DbErrorCode = (typeof DbErrorCode)[keyof typeof DbErrorCode];

export class DbError extends Error {
  constructor(
    readonly code: DbErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DbError';
  }
}

/** A committed migration file no longer matches what was applied to this database. */
export class MigrationChecksumMismatchError extends DbError {
  constructor(
    readonly migrationName: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      DbErrorCode.MIGRATION_CHECKSUM_MISMATCH,
      `migration ${migrationName} was modified after it was applied ` +
        `(database has checksum ${appliedChecksum}, file has ${fileChecksum}); ` +
        'add a new migration instead of editing an applied one',
    );
    this.name = 'MigrationChecksumMismatchError';
  }
}

/** A migration's SQL failed; its transaction was rolled back, so nothing of it was applied. */
export class MigrationFailedError extends DbError {
  constructor(
    readonly migrationName: string,
    options: { cause: unknown },
  ) {
    super(
      DbErrorCode.MIGRATION_FAILED,
      `migration ${migrationName} failed and was rolled back: ${describe(options.cause)}`,
      options,
    );
    this.name = 'MigrationFailedError';
  }
}

/** `_prisma_migrations` records a started, unfinished migration (e.g. from `prisma migrate deploy`). */
export class MigrationUnfinishedError extends DbError {
  constructor(readonly migrationName: string) {
    super(
      DbErrorCode.MIGRATION_UNFINISHED,
      `migration ${migrationName} is recorded as started but not finished; ` +
        'inspect the database, then resolve it (prisma migrate resolve) before migrating again',
    );
    this.name = 'MigrationUnfinishedError';
  }
}

export class LedgerInvalidError extends DbError {
  constructor(message: string) {
    super(DbErrorCode.LEDGER_INVALID, message);
    this.name = 'LedgerInvalidError';
  }
}

/** Entries of one ledger transaction don't sum to zero (or there are fewer than two). */
export class LedgerUnbalancedError extends DbError {
  constructor(
    readonly idempotencyKey: string | undefined,
    readonly sum: bigint | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      DbErrorCode.LEDGER_UNBALANCED,
      `ledger transaction ${idempotencyKey ?? '(unknown)'} is unbalanced` + (sum === undefined ? '' : `: sum ${sum}`),
      options,
    );
    this.name = 'LedgerUnbalancedError';
  }
}

/** Something tried to change or delete a ledger row, or write a balance directly. */
export class LedgerImmutableError extends DbError {
  constructor(options: { cause: unknown }) {
    super(DbErrorCode.LEDGER_IMMUTABLE, `ledger rows are immutable: ${describe(options.cause)}`, options);
    this.name = 'LedgerImmutableError';
  }
}

/**
 * A ledger transaction would move chips between practice accounts (practice wallets, the practice
 * source, escrows at practice rooms) and real ones, or a room would change between the two. The
 * database refuses it (SQLSTATE FL006), and the ledger turns the refusal into this error.
 */
export class PracticeChipsMixedError extends DbError {
  constructor(
    readonly idempotencyKey: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      DbErrorCode.PRACTICE_CHIPS_MIXED,
      `ledger transaction ${idempotencyKey ?? '(unknown)'} would mix practice chips and real chips`,
      options,
    );
    this.name = 'PracticeChipsMixedError';
  }
}

/** A posting would take a wallet, escrow or the rake account below zero. */
export class InsufficientFundsError extends DbError {
  constructor(
    readonly accountKey: string,
    readonly balance: bigint,
    readonly requested: bigint,
    options?: { cause?: unknown },
  ) {
    super(DbErrorCode.INSUFFICIENT_FUNDS, `account ${accountKey} holds ${balance}, needs ${requested}`, options);
    this.name = 'InsufficientFundsError';
  }
}

/** A bot was refused the room's free seats: each is held for a player on the room's waitlist. */
export class SeatHeldError extends DbError {
  constructor(
    readonly roomId: string,
    readonly waiting: number,
    options?: { cause?: unknown },
  ) {
    super(DbErrorCode.SEAT_HELD, `room ${roomId}'s free seats are held for ${waiting} waiting players`, options);
    this.name = 'SeatHeldError';
  }
}

/** Why the house bankroll would not stake a bot. */
export const BankrollRefusal = {
  /** The bankroll holds less than the buy-in. */
  EMPTY: 'bankroll_empty',
  /** The bots at this room would hold more of the bankroll's chips than the per-room limit. */
  ROOM_LIMIT: 'room_limit',
  /** The bankroll has staked bots as much as the daily limit allows in the last 24 hours. */
  DAILY_LIMIT: 'daily_limit',
} as const;
export type BankrollRefusal = (typeof BankrollRefusal)[keyof typeof BankrollRefusal];

/** The house bankroll cannot or may not stake a bot's buy-in; nothing was written. */
export class BankrollRefusedError extends DbError {
  constructor(
    readonly reason: BankrollRefusal,
    readonly roomId: string,
    readonly requested: bigint,
    readonly available: bigint,
  ) {
    super(
      DbErrorCode.BANKROLL_REFUSED,
      `the house bankroll will not stake ${requested} at room ${roomId}: ${reason} (${available} available)`,
    );
    this.name = 'BankrollRefusedError';
  }
}

/** Why a tournament operation was refused. */
export const TournamentRefusal = {
  NOT_FOUND: 'not_found',
  /**
   * Registration or unregistration after the start, or a cancellation after it; a re-entry the
   * tournament does not offer or no longer takes.
   */
  NOT_REGISTERING: 'not_registering',
  FULL: 'full',
  /** The player unregistered from this tournament too many times to register again, or used up their re-entries. */
  ENTRY_LIMIT: 'entry_limit',
  /** The player holds no entry that could be unregistered (or awarded, or marked out). */
  NOT_REGISTERED: 'not_registered',
  /** The start found fewer entries than the minimum: cancel it instead. */
  TOO_FEW: 'too_few',
  /** A place awarded, an entry marked out, a finish, or registration or re-entry closed, outside a running one. */
  NOT_RUNNING: 'not_running',
  /** The entry already has another place or prize. */
  PLACE_CONFLICT: 'place_conflict',
  /** The finish found players still in, or chips left in the prize pool. */
  NOT_OVER: 'not_over',
  /**
   * The add-on is not on sale: the config offers none, the director has not opened it, its sale
   * ended (add_on_until passed), the director closed the add-ons, or the tournament is not running;
   * also a refund once the add-ons are closed (the prize pool is final then).
   */
  ADD_ON_CLOSED: 'add_on_closed',
  /** A refund for an entry that bought no add-on. */
  NO_ADD_ON: 'no_add_on',
} as const;
export type TournamentRefusal = (typeof TournamentRefusal)[keyof typeof TournamentRefusal];

/** A tournament operation the tournament's state does not allow; nothing was written. */
export class TournamentRefusedError extends DbError {
  constructor(
    readonly reason: TournamentRefusal,
    readonly tournamentId: string,
    message: string,
  ) {
    super(DbErrorCode.TOURNAMENT_REFUSED, `tournament ${tournamentId}: ${reason}: ${message}`);
    this.name = 'TournamentRefusedError';
  }
}

/** An idempotency key was replayed with different content. */
export class IdempotencyConflictError extends DbError {
  constructor(readonly idempotencyKey: string) {
    super(
      DbErrorCode.IDEMPOTENCY_CONFLICT,
      `idempotency key ${idempotencyKey} was already used for a different transaction`,
    );
    this.name = 'IdempotencyConflictError';
  }
}

export class TransactionRetriesExhaustedError extends DbError {
  constructor(
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      DbErrorCode.TRANSACTION_RETRIES_EXHAUSTED,
      `transaction still conflicting after ${attempts} attempts`,
      options,
    );
    this.name = 'TransactionRetriesExhaustedError';
  }
}

/** A hand record that cannot be persisted as it is: retrying will not help. */
export class HandRecordInvalidError extends DbError {
  constructor(
    readonly handId: string,
    readonly problems: readonly string[],
  ) {
    super(DbErrorCode.HAND_INVALID, `hand ${handId} is invalid: ${problems.slice(0, 5).join('; ')}`);
    this.name = 'HandRecordInvalidError';
  }
}

/**
 * A table worker's write carried a lease epoch below the room's `owner_epoch`: another worker has
 * taken the table over since (docs/architecture.md, "Ownership and failover"). Nothing was written;
 * the worker must stop serving the table.
 */
export class StaleOwnerEpochError extends DbError {
  constructor(
    readonly roomId: string,
    /** The epoch the write carried. */
    readonly epoch: number,
    /** The room's owner_epoch when the write was refused. */
    readonly current: number,
  ) {
    super(DbErrorCode.STALE_EPOCH, `write for room ${roomId} refused: epoch ${epoch} is stale (room at ${current})`);
    this.name = 'StaleOwnerEpochError';
  }
}

/** The hand id, or the room's hand number, was already persisted with different content. */
export class HandConflictError extends DbError {
  constructor(
    readonly handId: string,
    readonly roomId: string,
    readonly handNo: number,
    readonly reason: string,
  ) {
    super(DbErrorCode.HAND_CONFLICT, `hand ${handId} (room ${roomId}, no. ${handNo}) conflicts: ${reason}`);
    this.name = 'HandConflictError';
  }
}

/**
 * An earlier hand of the same room is not persisted yet. Hands of a room are written in order, so
 * this one waits (the persister delays the job; it does not count as a failed attempt).
 */
export class HandNotReadyError extends DbError {
  constructor(
    readonly handId: string,
    readonly roomId: string,
    readonly handNo: number,
    readonly lastHandNo: number,
  ) {
    super(
      DbErrorCode.HAND_NOT_READY,
      `hand ${handId} is no. ${handNo} of room ${roomId}, which has only ${lastHandNo} persisted`,
    );
    this.name = 'HandNotReadyError';
  }
}

/** A player's escrow does not hold what the table says they had: nothing was posted. */
export class EscrowMismatchError extends DbError {
  constructor(
    readonly handId: string,
    readonly roomId: string,
    readonly mismatches: readonly { userId: string; seat: number; escrow: bigint; expected: bigint }[],
  ) {
    super(
      DbErrorCode.ESCROW_MISMATCH,
      `hand ${handId}: escrow does not reconcile with the starting stacks of ` +
        mismatches.map((m) => `seat ${m.seat} (escrow ${m.escrow}, expected ${m.expected})`).join(', '),
    );
    this.name = 'EscrowMismatchError';
  }
}

/** A cash-out request id was replayed with different content. */
export class CashOutConflictError extends DbError {
  constructor(
    readonly requestId: string,
    readonly reason: string,
  ) {
    super(DbErrorCode.CASH_OUT_CONFLICT, `cash-out ${requestId} conflicts with the recorded request: ${reason}`);
    this.name = 'CashOutConflictError';
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
