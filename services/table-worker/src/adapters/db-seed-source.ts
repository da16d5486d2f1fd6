import { loadTableSeed, type PrismaClient } from '@felt/db';
import { safeParseRoomConfig } from '@felt/protocol';
import type { TableSeed, TableSeedSource } from '../ports.js';
import { seatCountOf } from './room-seats.js';

/**
 * Reads a room and its active memberships through @felt/db (docs/dev/contracts.md), its host, and
 * whether an operator runs it as a bot-only table.
 */
export class DbSeedSource implements TableSeedSource {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly botsOnly: (tableId: string) => Promise<boolean> = () => Promise.resolve(false),
  ) {}

  async load(tableId: string): Promise<TableSeed | null> {
    const seed = await loadTableSeed(this.prisma, tableId);
    if (!seed) return null;
    const [host, botsOnly] = await Promise.all([
      this.prisma.room.findUnique({ where: { id: tableId }, select: { hostId: true } }),
      this.botsOnly(tableId),
    ]);
    const config = safeParseRoomConfig(seed.room.config);
    return {
      roomId: seed.room.id,
      status: seed.room.status,
      seatCount: seatCountOf(seed.room.config, seed.members),
      ...(config.success ? { config: config.config } : {}),
      ...(host ? { hostId: host.hostId } : {}),
      botsOnly,
      members: seed.members.map((m) => ({
        userId: m.userId,
        name: m.name,
        seat: m.seat,
        // Chips are integers well inside 2^53 on any real table; the wire carries numbers.
        stack: Number(m.stack),
      })),
    };
  }
}
