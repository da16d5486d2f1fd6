import type { TableMessage } from '@felt/protocol';

/** A member of a room as the worker needs it: active memberships only. */
export interface SeatedMember {
  readonly userId: string;
  readonly name: string;
  /** 1-based seat number. */
  readonly seat: number;
  readonly stack: number;
}

/** The durable facts a table actor starts from (the room and its membership rows). */
export interface TableSeed {
  readonly roomId: string;
  readonly status: 'open' | 'closing' | 'closed';
  readonly seatCount: number;
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
  readonly message: TableMessage;
}

/**
 * Fan-out of table events to gateways (Redis pub/sub: at most once, in order per table because one
 * actor publishes them in sequence over one connection).
 */
export interface EventPublisher {
  publish(tableId: string, tableSeq: number, publications: readonly Publication[]): Promise<void>;
}

/** A table's serializable state, as checkpointed after every accepted command. */
export interface TableCheckpoint {
  readonly version: 1;
  readonly tableId: string;
  readonly tableSeq: number;
  readonly state: unknown;
}

export const CheckpointErrorCode = { CORRUPT: 'checkpoint_corrupt' } as const;
export type CheckpointErrorCode = (typeof CheckpointErrorCode)[keyof typeof CheckpointErrorCode];

export class CheckpointCorruptError extends Error {
  readonly code = CheckpointErrorCode.CORRUPT;
  constructor(
    readonly tableId: string,
    options?: { cause?: unknown },
  ) {
    super(`checkpoint of table ${tableId} is corrupt`, options);
    this.name = 'CheckpointCorruptError';
  }
}

/**
 * Durable-enough storage of each table's last checkpoint, written before anything is published, so
 * that table_seq keeps growing when another worker takes the table over. (The fenced lease that makes
 * this safe against two writers comes with failover.)
 */
export interface CheckpointStore {
  /** Throws CheckpointCorruptError when one exists but cannot be read. */
  load(tableId: string): Promise<TableCheckpoint | null>;
  save(checkpoint: TableCheckpoint): Promise<void>;
}

export interface Clock {
  now(): number;
}
