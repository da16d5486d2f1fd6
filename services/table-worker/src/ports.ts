import { CodedError } from '@felt/engine';
import type { BlindCheck } from '@felt/blind';
import type { CompletedHandJob } from '@felt/platform';
import type { RoomConfig, TableHeartbeat, TableMessage } from '@felt/protocol';
import type { BufferedEvent } from './table/event-buffer.js';
import type { TournamentReport } from './tournament/contracts.js';

/** A member of a room as the worker needs it: active memberships only. */
export interface SeatedMember {
  readonly userId: string;
  readonly name: string;
  /** 1-based seat number. */
  readonly seat: number;
  /** Chips in escrow when the table first seats the member. */
  readonly stack: number;
}

/** The durable facts a table actor starts from (the room and its membership rows). */
export interface TableSeed {
  readonly roomId: string;
  readonly status: 'open' | 'closing' | 'closed';
  readonly seatCount: number;
  /** The parsed room configuration; absent when the row's config no longer parses (defaults apply). */
  readonly config?: RoomConfig;
  /** The room's host (start_hand), when known. */
  readonly hostId?: string;
  /** An operator runs this room as a bot-only table: bots fill it and deal without humans. */
  readonly botsOnly?: boolean;
  /** Players on the room's waitlist: bots give up seats to them at hand boundaries. Absent: none. */
  readonly waitlisted?: number;
  readonly members: readonly SeatedMember[];
}

/**
 * Where a worker reads a room when it creates the table's actor, and again when the lobby says
 * membership changed. Returns null when no such room exists.
 */
export interface TableSeedSource {
  load(tableId: string): Promise<TableSeed | null>;
}

/** Who receives one published copy of a message. */
export type Audience =
  /** Everyone at the table except the listed users, who got their own copy (spectator view). */
  | { readonly kind: 'table'; readonly except: readonly string[] }
  /** One user's own view. */
  | { readonly kind: 'user'; readonly userId: string };

export interface Publication {
  readonly audience: Audience;
  /** Carries its own table_seq (and prev_table_seq for its recipient's stream). */
  readonly message: TableMessage | TableHeartbeat;
  /**
   * `message` as JSON, when it was built already (a snapshot's, from the canonical text its
   * state_hash covers): published as it is. Parsed, it equals `message`.
   */
  readonly text?: string;
}

/**
 * Fan-out of table events to gateways (Redis pub/sub: at most once, in order per table because one
 * actor publishes them in sequence over one connection).
 */
export interface EventPublisher {
  publish(tableId: string, publications: readonly Publication[]): Promise<void>;
  /**
   * Tells the gateways (a `control: "reattach"` envelope on the table's channel, never delivered to
   * a socket) that the table was built again without its attachments: each connection they hold as
   * attached to it attaches again. `tableSeq` is the rebuilt table's first sequence number.
   */
  tableReset(tableId: string, tableSeq: number): Promise<void>;
}

/** A table's serializable state, as checkpointed after every accepted command. */
export interface TableCheckpoint {
  readonly version: 1;
  readonly tableId: string;
  readonly tableSeq: number;
  /** The live table (engine table and hand, timers, streams, command history), plain JSON. */
  readonly state: unknown;
}

export const CheckpointErrorCode = { CORRUPT: 'checkpoint_corrupt' } as const;
export type CheckpointErrorCode = (typeof CheckpointErrorCode)[keyof typeof CheckpointErrorCode];

export class CheckpointCorruptError extends CodedError<CheckpointErrorCode> {
  override readonly name = 'CheckpointCorruptError';
  constructor(
    readonly tableId: string,
    options?: { cause?: unknown },
  ) {
    super(CheckpointErrorCode.CORRUPT, `checkpoint of table ${tableId} is corrupt`, options);
  }
}

/**
 * The lease epoch a checkpoint write is fenced with: the store writes only while the table's
 * epoch counter still equals it (a compare-and-set in one Lua script), so a worker that lost the
 * table (its lease expired and another worker acquired it, which increments the epoch) can never
 * overwrite the new owner's state.
 */
export interface CheckpointFence {
  readonly epoch: number;
}

export interface CheckpointSaveOptions {
  /** Becomes the checkpoint's top-level `money` section (docs/dev/money-flows.md §7). */
  readonly moneyJson?: string;
  /** Throws StaleEpochError (and writes nothing) when the table's epoch is no longer `fence.epoch`. */
  readonly fence?: CheckpointFence;
  /**
   * What the mark beside the checkpoint keeps of this state (the writer knows it; the store does not
   * parse the state). Absent: no hand in progress, hand number unknown.
   */
  readonly mark?: { readonly handId: string | null; readonly handNo: number };
}

/**
 * A fenced write refused because the table's epoch moved on: another worker owns the table. The
 * checkpoint store throws it (Redis epoch), and so does the seed source for a Postgres write
 * (`rooms.owner_epoch`, docs/dev/money-flows.md).
 */
export class StaleEpochError extends CodedError<'stale_epoch'> {
  override readonly name = 'StaleEpochError';
  constructor(
    readonly tableId: string,
    /** The epoch the write carried. */
    readonly epoch: number,
    /** The table's epoch where the write was refused (0: none). */
    readonly current: number,
    /** What was refused. */
    readonly write: 'checkpoint' | 'bot seat' | 'room claim' | 'rebuild seal' = 'checkpoint',
  ) {
    super('stale_epoch', `${write} of table ${tableId} refused: epoch ${epoch} is stale (current ${current})`);
  }
}

/**
 * What the store keeps beside each checkpoint, in a separate small key written by the same atomic
 * script, so that a new owner still knows the table's last table_seq and whether a hand was in
 * progress when the checkpoint itself is missing or unreadable.
 */
export interface CheckpointMark {
  readonly tableSeq: number;
  readonly epoch: number;
  /** The hand in progress at that checkpoint (after the deal, before its result), or null. */
  readonly handId: string | null;
  /**
   * The number of the table's last completed hand at that checkpoint (absent in older marks). A table
   * rebuilt from the room rows waits until the persister has written hands up to it, so that the
   * rows' stacks include every result.
   */
  readonly handNo?: number;
}

/**
 * Storage of each table's last checkpoint, written before anything is published, so that
 * table_seq keeps growing and a hand in progress continues when another worker takes the table
 * over. The event buffer is appended beside it in the same atomic write. With a fence, the write
 * happens only while the table's lease epoch is still the writer's (docs/architecture.md, "Ownership and failover").
 */
export interface CheckpointStore {
  /** Throws CheckpointCorruptError when one exists but cannot be read. */
  load(tableId: string): Promise<{ checkpoint: TableCheckpoint; events: BufferedEvent[] } | null>;
  /**
   * Saves the state (already serialized: the actor writes one JSON string per command) and appends
   * `events` to the table's bounded event buffer, atomically. See CheckpointSaveOptions. A save
   * whose writer saw it fail may still have been written (its reply lost, its replicas late); the
   * writer then rolls back and uses those table_seqs again, so a save whose first table_seq the mark
   * already reached first drops the buffered events from that table_seq on.
   */
  save(
    tableId: string,
    tableSeq: number,
    stateJson: string,
    events: readonly BufferedEvent[],
    options?: CheckpointSaveOptions,
  ): Promise<void>;
  /** The mark the last save left (absent in stores that keep none). */
  mark?(tableId: string): Promise<CheckpointMark | null>;
}

/** A table lease this process holds. */
export interface LeaseGrant {
  readonly tableId: string;
  readonly epoch: number;
  /** The lease's value as stored: `<workerId>|<instance>|<epoch>`. */
  readonly value: string;
}

/** Who holds a table's lease. */
export interface LeaseHolder {
  readonly workerId: string;
  readonly epoch: number;
  /** Time left on the lease (ms), as the store sees it. */
  readonly ttlMs: number;
}

export type AcquireResult =
  { readonly acquired: true; readonly grant: LeaseGrant } | { readonly acquired: false; readonly holder: LeaseHolder };

/**
 * Per-table leases (Redis in production): a worker serves a table only while it holds the table's
 * lease, and fences its checkpoints with the lease's epoch (CheckpointFence). One instance speaks for
 * one process of one worker id; every instance over the same store sees the same leases and epochs.
 */
export interface TableLeases {
  /** How long a lease lasts without renewal. */
  readonly ttlMs: number;
  readonly workerId: string;
  /**
   * Takes the table's lease when it is free, or held by another process of this worker id (a
   * restarted pod: it is gone, and fencing refuses it anyway). Every acquisition increments the
   * table's epoch, so its grant's epoch is above every earlier one. Otherwise names the holder.
   */
  acquire(tableId: string): Promise<AcquireResult>;
  /** Renews every grant at once; per grant, whether it is still this holder's (false: lost). */
  renew(grants: readonly LeaseGrant[]): Promise<boolean[]>;
  /** Gives the lease up so the next owner need not wait for it to expire; false when it was not ours. */
  release(grant: LeaseGrant): Promise<boolean>;
  /** Who holds the table's lease now, or null (none, or expired). */
  holder(tableId: string): Promise<LeaseHolder | null>;
  /** Raises the table's epoch counter to at least `atLeast`; never lowers it. */
  raiseEpoch(tableId: string, atLeast: number): Promise<void>;
  /** The table's current epoch (0 when it was never acquired). */
  epoch(tableId: string): Promise<number>;
}

/**
 * Where completed hands go (BullMQ in production). Enqueueing the same hand twice must be
 * harmless: the job id is the hand id.
 */
export interface HandSink {
  enqueue(job: CompletedHandJob): Promise<void>;
}

export interface Clock {
  now(): number;
}

/** One-shot timers; the actor keeps at most one armed, for its next due time. */
export interface Scheduler {
  /** Calls `fn` at (or after) `at` on the injected clock; returns a cancel function. */
  schedule(at: number, fn: () => void): () => void;
}

/** Secret randomness: server seeds, hand ids, turn tokens. Production uses the OS CSPRNG. */
export interface RandomSource {
  bytes(n: number): Uint8Array;
  /** A fresh lowercase UUID v4. */
  uuid(): string;
}

/**
 * Checks engine-blind proofs (`@felt/blind`'s `BlindCheck`). A shuffle's check is about a second of
 * CPU, so production runs it on a pool of threads: the event loop, and every other table on the
 * worker, never waits for it. Resolves true only for a proof that verifies; a malformed task is false.
 * Rejects when the check could not run (the worker's failure, not the player's).
 */
export interface ProofChecker {
  check(task: BlindCheck): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Where a tournament table's hand reports go: its director, at the worker that owns the tournament
 * by the ring (src/tournament/). Resolves once the director has the report (it ignores a repeat).
 */
export interface TournamentReportSink {
  report(report: TournamentReport): Promise<void>;
}
