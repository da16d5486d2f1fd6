import type { HandJSON, Table, TableJSON } from '@felt/engine';
import type { CompletedHandJob } from '@felt/platform';
import type { RoomConfig } from '@felt/protocol';
import type { MoneySeed, OutboxJob } from '../money/ports.js';
import type { TableMoneyJSON } from '../money/table-money.js';
import type { BlindDealingJSON } from './blind-dealing.js';
import type { CommandRecord } from './command-history.js';
import type { HandMeta, PendingHand } from './dealer.js';
import type { ConnectionState, MemberState } from './seating.js';
import type { StreamState } from './stream-book.js';
import type { TournamentTableJSON } from './tournament-table.js';
import { newTournamentTableJSON } from './tournament-table.js';
import type { TurnState } from './turn-clock.js';

/** The checkpointed state of a live table (`P checkpoint:<table>`'s `state`). */
export interface LiveTableJSON {
  readonly format: 'felt-live-table/1';
  readonly tableId: string;
  readonly tableSeq: number;
  readonly closed: boolean;
  readonly config: RoomConfig;
  readonly hostId: string | null;
  readonly botsOnly: boolean;
  readonly members: readonly MemberState[];
  readonly connections: readonly ConnectionState[];
  readonly engine: TableJSON;
  readonly hand: HandJSON | null;
  readonly meta: HandMeta | null;
  readonly pending: PendingHand | null;
  readonly turn: TurnState | null;
  readonly banks: Readonly<Record<string, number>>;
  readonly away: readonly string[];
  readonly leaving: readonly string[];
  readonly nextHandAt: number | null;
  readonly handNo: number;
  readonly noHumanSince: number | null;
  readonly frozenAt: number | null;
  readonly streams: Readonly<Record<string, StreamState>>;
  readonly commands: Readonly<Record<string, readonly CommandRecord[]>>;
  /** Jobs for the hands queue, kept here until they are in it (docs/dev/money-flows.md §1). */
  readonly outbox: readonly (OutboxJob | CompletedHandJob)[];
  /** Top-ups added and not yet reported, memberships let go (absent in older checkpoints). */
  readonly moneyBook?: TableMoneyJSON;
  /**
   * The room is closing while a hand is played: no new hand is dealt, the hand finishes by the rules
   * and counts, then the seats are refunded and the table closes (absent in older checkpoints).
   */
  readonly closing?: boolean;
  /** A tournament's table: the director's orders and what it last said (absent at a cash table). */
  readonly tournament?: TournamentTableJSON;
  /** Engine-blind dealing: the hand's protocol (public values only) and the downgrade (absent before it). */
  readonly blind?: BlindDealingJSON;
}

/** A table's state before anything happened at it: no member seated yet, no hand, nothing sent. */
export function newTableJSON(
  tableId: string,
  seed: MoneySeed,
  config: RoomConfig,
  engine: Table,
  tableSeq: number,
  now: number,
): LiveTableJSON {
  return {
    format: 'felt-live-table/1',
    tableId,
    tableSeq,
    closed: false,
    config,
    hostId: seed.hostId ?? null,
    botsOnly: seed.botsOnly ?? false,
    members: [],
    connections: [],
    engine: engine.toJSON(),
    hand: null,
    meta: null,
    pending: null,
    turn: null,
    banks: {},
    away: [],
    leaving: [],
    nextHandAt: null,
    // Hands 1..lastHandNo of this room are persisted: the table numbers on from there.
    handNo: seed.lastHandNo ?? 0,
    noHumanSince: now,
    frozenAt: null,
    streams: {},
    commands: {},
    outbox: [],
    ...(seed.tournament !== undefined ? { tournament: newTournamentTableJSON(seed.tournament.tournamentId) } : {}),
  };
}
