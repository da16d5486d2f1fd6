import { accountBalance, escrowAccount, roomEscrows } from '@felt/db';
import { stakesLabel } from '@felt/protocol';
import { UUID, type RoomStore } from './room-store.js';
import type { QuickJoinFilter, RoomMember, RoomSummary, RoomsOptions } from './types.js';

/** Reading rooms: the listed ones, one with its members, and a user's seats. */
export class RoomQueries {
  constructor(
    private readonly o: RoomsOptions,
    private readonly store: RoomStore,
  ) {}

  /** Open listed rooms, oldest first, optionally filtered. */
  async list(filter: QuickJoinFilter, pageSize: number): Promise<RoomSummary[]> {
    const rows = await this.o.prisma.room.findMany({
      where: {
        status: 'open',
        isPublic: true,
        ...(filter.game ? { config: { path: ['game'], equals: filter.game } } : {}),
      },
      orderBy: { createdAt: 'asc' },
      take: filter.limit || filter.stakes ? 1000 : pageSize,
      select: {
        id: true,
        code: true,
        status: true,
        hostId: true,
        config: true,
        createdAt: true,
        _count: { select: { memberships: { where: { status: 'active' } }, waitlist: true } },
      },
    });
    return rows
      .flatMap((r) => {
        const config = this.store.readConfig(r.config, r.id);
        return config
          ? [
              {
                id: r.id,
                code: r.code,
                status: r.status,
                hostId: r.hostId,
                config,
                players: r._count.memberships,
                createdAt: r.createdAt,
                waitlist: r._count.waitlist,
              },
            ]
          : [];
      })
      .filter(
        (r) =>
          (!filter.limit || r.config.limit === filter.limit) &&
          (!filter.stakes || stakesLabel(r.config) === filter.stakes),
      )
      .slice(0, pageSize);
  }

  /** One room (closed ones included, so a client learns why it can't join) with its members. */
  async get(roomId: string): Promise<{ room: RoomSummary; members: RoomMember[] } | null> {
    if (!UUID.test(roomId)) return null;
    const r = await this.o.prisma.room.findUnique({
      where: { id: roomId },
      select: {
        id: true,
        code: true,
        status: true,
        hostId: true,
        config: true,
        createdAt: true,
        memberships: {
          where: { status: 'active' },
          orderBy: { seat: 'asc' },
          select: { userId: true, seat: true, user: { select: { name: true } } },
        },
        _count: { select: { waitlist: true } },
      },
    });
    if (!r) return null;
    const config = this.store.readConfig(r.config, r.id);
    if (!config) return null;
    const stacks = await roomEscrows(this.o.prisma, r.id);
    return {
      room: {
        id: r.id,
        code: r.code,
        status: r.status,
        hostId: r.hostId,
        config,
        players: r.memberships.length,
        createdAt: r.createdAt,
        waitlist: r._count.waitlist,
      },
      members: r.memberships.map((m) => ({
        userId: m.userId,
        name: m.user.name,
        seat: m.seat,
        stack: stacks.get(m.userId) ?? 0n,
      })),
    };
  }

  /** The user's active seats, for GET /api/me. */
  async seatsOf(userId: string): Promise<{ roomId: string; code: string; seat: number; stack: bigint }[]> {
    const rows = await this.o.prisma.membership.findMany({
      where: { userId, status: 'active' },
      orderBy: { joinedAt: 'asc' },
      select: { roomId: true, seat: true, room: { select: { code: true } } },
    });
    return Promise.all(
      rows.map(async (m) => ({
        roomId: m.roomId,
        code: m.room.code,
        seat: m.seat,
        stack: await accountBalance(this.o.prisma, escrowAccount(m.roomId, userId)),
      })),
    );
  }
}
