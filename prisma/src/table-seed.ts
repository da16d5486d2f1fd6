import type { Db } from './client.js';
import { AccountKind, MembershipStatus, TopUpStatus, type RoomStatus } from './generated/enums.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a table worker needs to create a table actor for a room (docs/dev/contracts.md). */
export interface TableSeed<C = unknown> {
  readonly room: {
    readonly id: string;
    readonly code: string;
    readonly status: RoomStatus;
    /** The room's RoomConfig; validated when the caller passes a parser. */
    readonly config: C;
    /** Hands 1..lastHandNo are persisted; the table continues its numbering after its own last hand. */
    readonly lastHandNo: number;
    /** Players on the room's waitlist: the table's bots make way for them (docs/dev/contracts.md, "Waitlists"). */
    readonly waitlisted: number;
  };
  /** Active members in seat order. */
  readonly members: readonly TableSeedMember[];
}

export interface TableSeedMember {
  readonly userId: string;
  readonly name: string;
  /** 1-based. */
  readonly seat: number;
  readonly status: MembershipStatus;
  /** Names this seat in cash-out request ids (`leave-<membershipId>`). */
  readonly membershipId: string;
  /**
   * The stack after every persisted hand: the escrow less the pending top-ups (docs/dev/money-flows.md).
   * It is the live stack only when no hand of this table is still waiting to be persisted.
   */
  readonly stack: bigint;
  /** Chips paid in for a rebuy or top-up that the table has not added yet, oldest first. */
  readonly pendingTopUps: readonly { readonly id: string; readonly amount: bigint }[];
  /** The player asked the lobby to leave: the table lets them go (at the end of a hand in progress). */
  readonly leaveRequested: boolean;
}

/**
 * The room and its active members with their stacks, or null if the room doesn't exist. Closed
 * and closing rooms are returned too, with their status, so the worker can refuse them.
 *
 * @felt/db does not depend on @felt/protocol, so pass `parseRoomConfig` to validate the config on
 * read, as every reader of rooms.config should.
 */
export async function loadTableSeed<C = unknown>(
  db: Db,
  roomId: string,
  parseConfig?: (raw: unknown) => C,
): Promise<TableSeed<C> | null> {
  // Table ids arrive from clients; anything that isn't a uuid can't name a room.
  if (!UUID.test(roomId)) return null;
  const room = await db.room.findUnique({
    where: { id: roomId },
    select: {
      id: true,
      code: true,
      status: true,
      config: true,
      memberships: {
        where: { status: MembershipStatus.active },
        orderBy: { seat: 'asc' },
        select: {
          id: true,
          userId: true,
          seat: true,
          status: true,
          leaveRequestedAt: true,
          user: { select: { name: true } },
          topUps: {
            where: { status: TopUpStatus.pending },
            orderBy: { requestedAt: 'asc' },
            select: { id: true, amount: true },
          },
        },
      },
      accounts: { where: { kind: AccountKind.escrow }, select: { userId: true, balance: true } },
      lastHandNo: true,
      _count: { select: { waitlist: true } },
    },
  });
  if (!room) return null;
  const stacks = new Map(room.accounts.map((a) => [a.userId, a.balance]));
  return {
    room: {
      id: room.id,
      code: room.code,
      status: room.status,
      config: parseConfig ? parseConfig(room.config) : (room.config as C),
      lastHandNo: room.lastHandNo,
      waitlisted: room._count.waitlist,
    },
    members: room.memberships.map((m) => ({
      userId: m.userId,
      name: m.user.name,
      seat: m.seat,
      status: m.status,
      membershipId: m.id,
      stack: (stacks.get(m.userId) ?? 0n) - m.topUps.reduce((a, t) => a + t.amount, 0n),
      pendingTopUps: m.topUps.map((t) => ({ id: t.id, amount: t.amount })),
      leaveRequested: m.leaveRequestedAt !== null,
    })),
  };
}
