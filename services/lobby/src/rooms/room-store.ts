import {
  CashOutConflictError,
  IdempotencyConflictError,
  isUniqueViolation,
  withTransaction,
  type TxClient,
} from '@felt/db';
import { safeParseRoomConfig, type RoomConfig } from '@felt/protocol';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { RoomEvent } from '../ports.js';
import type { RoomsOptions } from './types.js';
import { UnreadableRows } from '../unreadable-rows.js';

/** How many unreadable rooms a process remembers having logged, so a broken row logs once, not per list. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A room row as lockRoom reads it, inside the transaction that holds its lock. */
export interface LockedRoom {
  id: string;
  code: string;
  status: 'open' | 'closing' | 'closed';
  host_id: string;
  config: unknown;
  last_hand_no: number;
}

/**
 * What every rooms operation shares: the room row's lock, the transaction (with the unique
 * indexes' and the ledger's refusals mapped to API errors), the config read that skips a row that
 * does not parse, and publishing membership events after the commit.
 */
export class RoomStore {
  private readonly unreadable: UnreadableRows;

  constructor(private readonly o: RoomsOptions) {
    this.unreadable = new UnreadableRows(o.logger, 'room');
  }

  /**
   * rooms.config is validated on every read as well as every write. A row that does not parse (written
   * before a bound existed, or by hand) is logged once and treated as absent, so it takes down only
   * itself and never a list or a join.
   */
  readConfig(raw: unknown, roomId: string): RoomConfig | null {
    const parsed = safeParseRoomConfig(raw);
    if (parsed.success) return parsed.config;
    this.unreadable.report(roomId, parsed.error.issues);
    return null;
  }

  requireConfig(raw: unknown, roomId: string): RoomConfig {
    const config = this.readConfig(raw, roomId);
    if (!config) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no open room has that code or id');
    return config;
  }

  async lockRoom(
    tx: TxClient,
    by: { code: string } | { id: string },
    options: { allowClosing?: boolean } = {},
  ): Promise<LockedRoom> {
    if ('id' in by && !UUID.test(by.id)) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no such room');
    // FOR UPDATE on the room row serialises every membership change of this room.
    const rows =
      'code' in by
        ? await tx.$queryRaw<LockedRoom[]>`
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config",
              "last_hand_no"
            FROM "rooms" WHERE "code" = ${by.code} AND "status" <> 'closed' FOR UPDATE`
        : await tx.$queryRaw<LockedRoom[]>`
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config",
              "last_hand_no"
            FROM "rooms" WHERE "id" = ${by.id}::uuid FOR UPDATE`;
    const room = rows[0];
    if (!room) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no open room has that code or id');
    if (room.status === 'closed' || (room.status === 'closing' && !options.allowClosing)) {
      throw new LobbyError(ApiErrorCode.ROOM_CLOSED, 'the room is closed');
    }
    return room;
  }

  async transaction<T>(fn: (tx: TxClient) => Promise<T>): Promise<T> {
    try {
      return await withTransaction(this.o.prisma, fn);
    } catch (err) {
      // The room lock makes these unreachable; the partial unique indexes are the backstop.
      if (isUniqueViolation(err, 'memberships_room_seat_active_key')) {
        throw new LobbyError(ApiErrorCode.SEAT_TAKEN, 'that seat is taken', undefined, { cause: err });
      }
      if (isUniqueViolation(err, 'memberships_room_user_active_key')) {
        throw new LobbyError(ApiErrorCode.ALREADY_SEATED, 'you already have a seat in this room', undefined, {
          cause: err,
        });
      }
      if (err instanceof CashOutConflictError) {
        throw new LobbyError(
          ApiErrorCode.CASH_OUT_PENDING,
          'a cash-out for this seat is already in progress',
          undefined,
          {
            cause: err,
          },
        );
      }
      if (err instanceof IdempotencyConflictError) {
        throw new LobbyError(
          ApiErrorCode.IDEMPOTENCY_CONFLICT,
          'that Idempotency-Key was used for a different request',
        );
      }
      throw err;
    }
  }

  emit(event: RoomEvent): void {
    this.o.events.publish(event).then(
      () => this.o.onPublish?.(event, true),
      (err: unknown) => {
        this.o.onPublish?.(event, false);
        this.o.logger.warn(
          { event: 'room_event_publish_failed', room: event.room_id, err },
          'room event not published',
        );
      },
    );
  }
}
