import { CodedError } from '@felt/engine';
import type { TournamentConfig } from '@felt/protocol';
import type { TournamentMessage, TournamentOrderResult } from './contracts.js';

/** A tournament the director may run now (@felt/db `tournamentsToDirect`). */
export interface TournamentDue {
  readonly id: string;
  readonly status: 'registering' | 'running';
  /** A registering tournament whose start is due (a full sit-and-go, a scheduled one past its time). */
  readonly due: boolean;
}

/** A started tournament, as its director seats it. */
export interface StartedTournament {
  readonly name: string;
  readonly config: TournamentConfig;
  /** Chips in the prize pool (buy-ins; the fees went to the house). */
  readonly prizePool: number;
  /** Every entry playing, in registration order. */
  readonly players: readonly { readonly entryId: string; readonly userId: string; readonly name: string }[];
}

/** Thrown by `start` when a tournament cannot start (too few entrants, cancelled, finished). */
export class TournamentNotStartedError extends Error {
  override readonly name = 'TournamentNotStartedError';
  constructor(
    readonly tournamentId: string,
    /** @felt/db TournamentRefusal: `too_few`, `not_registering`, … */
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a director reads and writes in Postgres (@felt/db, through src/adapters/db-tournament-store.ts). */
export interface TournamentStore {
  /** Running tournaments, and registering ones whose start is due. */
  toDirect(now: Date): Promise<TournamentDue[]>;
  /**
   * Starts the tournament (registering → running; again returns the same) and reads its field.
   * Throws TournamentNotStartedError when it cannot start.
   */
  start(tournamentId: string): Promise<StartedTournament>;
  /** Cancels a tournament that could not start: every entry is refunded. */
  cancel(tournamentId: string): Promise<void>;
  /** The tournament's tables 1..count, created once; their ids in table order. */
  openTables(tournamentId: string, count: number): Promise<string[]>;
  closeTable(tableId: string): Promise<void>;
  /** The player of an entry now sits at this table (the lobby shows it to them). */
  seated(entryId: string, tableId: string): Promise<void>;
  /** Every open table of every running tournament. */
  openTableIds(): Promise<string[]>;
  /** Pays a place from the prize pool (the same award again changes nothing). */
  award(tournamentId: string, entryId: string, place: number, prize: number): Promise<void>;
  /** Every place is paid: the tournament is finished. */
  finish(tournamentId: string): Promise<void>;
  /** Entries registered since the start (late registration) and not seated yet, oldest first. */
  lateEntries(tournamentId: string): Promise<readonly LateEntry[]>;
  /**
   * Late registration ends (again: the same answer): no entry is taken after this. The final field
   * (every entry not refunded) and prize pool.
   */
  closeRegistration(tournamentId: string): Promise<{ readonly entries: number; readonly prizePool: number }>;
  /**
   * An entry busted while late registration is open is out: its place waits for the close, but its
   * player may re-enter now (the lobby takes a re-entry only from a player whose entries are all out).
   * Again: nothing changes.
   */
  markOut(tournamentId: string, entryId: string): Promise<void>;
  /** Re-entry ends (the config's reEntry.untilLevel is over): no re-entry is taken after this. Again: the same. */
  closeReEntry(tournamentId: string): Promise<void>;
  /** The add-on goes on sale until `until` (the first break's end). Again: nothing changes. */
  openAddOn(tournamentId: string, until: Date): Promise<void>;
  /** Every add-on bought and not paid back, oldest first. */
  addOnsBought(tournamentId: string): Promise<readonly { readonly entryId: string; readonly userId: string }[]>;
  /** An add-on that could not be given (its player was out by then) is paid back in full. Again: nothing changes. */
  refundAddOn(tournamentId: string, entryId: string): Promise<void>;
  /**
   * The sale is over: no add-on is sold after this. The prize pool's total paid in (every buy-in and
   * add-on not paid back; prizes paid not deducted) and the field. Again: the same answer.
   */
  closeAddOns(tournamentId: string): Promise<{ readonly prizePool: number; readonly entries: number }>;
}

/** An entry registered after the start, waiting for the director to seat it. */
export interface LateEntry {
  readonly entryId: string;
  readonly userId: string;
  /**
   * Postgres's number for it: 1 + the player's earlier rows, refunded ones included. The director counts
   * the entries it seats itself (a refunded registration is no entry to it).
   */
  readonly entryNo: number;
  readonly name: string;
}

/** No worker took the message (none owns the target, it did not answer in time, or it moved twice). */
export class PeerUnavailableError extends CodedError<'peer_unavailable'> {
  override readonly name = 'PeerUnavailableError';
  constructor(
    readonly targetId: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super('peer_unavailable', `no worker took the message for ${targetId}: ${reason}`, options);
  }
}

/** The owner refused the message: it changed nothing there (`code` is an @felt/protocol ErrorCode). */
export class PeerRefusedError extends CodedError<'peer_refused'> {
  override readonly name = 'PeerRefusedError';
  constructor(
    readonly targetId: string,
    readonly refusal: string,
    message: string,
  ) {
    super('peer_refused', `${targetId} refused: ${refusal}: ${message}`);
  }
}

/** The Tournament RPC to the worker that owns the message's target (grpc/tournament-peers.ts). */
export interface TournamentPeerLink {
  send(message: TournamentMessage): Promise<TournamentOrderResult>;
}
