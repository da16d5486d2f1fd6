import { loadTableSeed, type PrismaClient } from '@felt/db';
import type { TableSeed, TableSeedSource } from '../ports.js';
import { seatCountOf } from './room-seats.js';

/** Reads a room and its active memberships through @felt/db (docs/dev/contracts.md). */
export class DbSeedSource implements TableSeedSource {
  constructor(private readonly prisma: PrismaClient) {}

  async load(tableId: string): Promise<TableSeed | null> {
    const seed = await loadTableSeed(this.prisma, tableId);
    if (!seed) return null;
    return {
      roomId: seed.room.id,
      status: seed.room.status,
      seatCount: seatCountOf(seed.room.config, seed.members),
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
