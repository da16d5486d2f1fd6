import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyIn, createTestDatabase, grant, loadTableSeed, withTransaction, type TestDatabase } from '@felt/db';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe('loadTableSeed', () => {
  it('returns the room and its active members in seat order with their stacks (escrow less pending top-ups)', async () => {
    const [ann, ben, cat] = await Promise.all(
      ['Ann', 'Ben', 'Cat'].map((name) =>
        db.prisma.user.create({ data: { name, nameKey: name.toLowerCase(), passwordHash: 'x' } }),
      ),
    );
    const config = { game: 'holdem', seats: 6 };
    const room = await db.prisma.room.create({ data: { code: '123456', config, isPublic: true, hostId: ann!.id } });
    await withTransaction(db.prisma, async (tx) => {
      for (const [user, seat, chips] of [
        [ben!, 4, 300n],
        [ann!, 2, 200n],
        [cat!, 1, 100n],
      ] as const) {
        await grant(tx, { userId: user.id, amount: 1000n, idempotencyKey: `g:${user.id}` });
        await buyIn(tx, { userId: user.id, roomId: room.id, amount: chips, idempotencyKey: `b:${user.id}` });
        await tx.membership.create({ data: { roomId: room.id, userId: user.id, seat, buyIn: chips } });
      }
      // Ben paid in a top-up the table has not added yet: it is not part of his stack.
      const ben4 = await tx.membership.findFirstOrThrow({ where: { roomId: room.id, userId: ben!.id } });
      await buyIn(tx, {
        userId: ben!.id,
        roomId: room.id,
        amount: 50n,
        idempotencyKey: `t:${ben!.id}`,
        kind: 'top_up',
      });
      await tx.topUp.create({
        data: { idempotencyKey: `t:${ben!.id}`, roomId: room.id, userId: ben!.id, membershipId: ben4.id, amount: 50n },
      });
      await tx.membership.update({ where: { id: ben4.id }, data: { leaveRequestedAt: new Date() } });
      // Cat left: history, not a member.
      await tx.membership.updateMany({
        where: { roomId: room.id, userId: cat!.id },
        data: { status: 'left', leftAt: new Date() },
      });
    });

    const seed = await loadTableSeed(db.prisma, room.id);
    const topUp = await db.prisma.topUp.findFirstOrThrow({ where: { userId: ben!.id } });
    const ids = await db.prisma.membership.findMany({ where: { roomId: room.id }, select: { id: true, userId: true } });
    const membershipOf = (userId: string) => ids.find((m) => m.userId === userId)!.id;
    expect(seed).toEqual({
      room: { id: room.id, code: '123456', status: 'open', config, lastHandNo: 0, waitlisted: 0 },
      members: [
        {
          userId: ann!.id,
          name: 'Ann',
          seat: 2,
          status: 'active',
          membershipId: membershipOf(ann!.id),
          stack: 200n,
          pendingTopUps: [],
          leaveRequested: false,
        },
        {
          userId: ben!.id,
          name: 'Ben',
          seat: 4,
          status: 'active',
          membershipId: membershipOf(ben!.id),
          stack: 300n,
          pendingTopUps: [{ id: topUp.id, amount: 50n }],
          leaveRequested: true,
        },
      ],
    });

    const parsed = await loadTableSeed(db.prisma, room.id, (raw) => ({ parsed: raw }));
    expect(parsed?.room.config).toEqual({ parsed: config });
    await expect(
      loadTableSeed(db.prisma, room.id, () => {
        throw new Error('bad config');
      }),
    ).rejects.toThrow('bad config');
  });

  it('returns null for a room that does not exist or an id that is not a uuid', async () => {
    expect(await loadTableSeed(db.prisma, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await loadTableSeed(db.prisma, 'not-a-room')).toBeNull();
  });
});
