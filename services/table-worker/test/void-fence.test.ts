import { randomBytes } from 'node:crypto';
import { createTestDatabase, fundHouseBankroll, type TestDatabase } from '@felt/db';
import { closeRedis, createLogger, createRedis, type Redis } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRoom } from '../../../test/money/fixtures.js';
import { TableDirectory } from '../src/actor/table-directory.js';
import { DbSeedSource } from '../src/adapters/db-seed-source.js';
import { RedisCheckpointStore } from '../src/adapters/redis-checkpoint-store.js';
import { RedisLeases } from '../src/adapters/redis-lease.js';
import { NotOwnerError, TableOwnership, type LossReason } from '../src/ownership/table-ownership.js';
import { harness } from './support/fakes.js';

// Fencing (docs/architecture.md, Ownership and failover): any Postgres write a worker makes for a
// table carries the lease's epoch, and a stale one is refused. The one such write is seating a
// funded bot (@felt/db seatBot), fenced by rooms.owner_epoch.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BOT_FILL = { botFill: { mode: 'fill' as const, targetPlayers: 3 }, buyIn: { min: 100, max: 400 } };

let db: TestDatabase;
let redis: Redis;
const prefixes: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // Bots buy in from the house bankroll an operator funds.
  await fundHouseBankroll(db.prisma, 1_000_000n, 'void-fence');
  redis = createRedis(REDIS_URL, { name: 'void-fence-test' });
});

afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await closeRedis(redis);
  await db?.drop();
});

/** One worker: real leases and checkpoints in Redis, the room rows and bot seats in Postgres. */
function worker() {
  const prefix = `tfence${randomBytes(4).toString('hex')}:`;
  prefixes.push(prefix);
  const h = harness();
  const lost: LossReason[] = [];
  let stale = 0;
  const ownership = new TableOwnership({
    leases: new RedisLeases({ redis, prefix, workerId: 'wa', instance: 'i1', ttlMs: 5_000 }),
    logger: createLogger('table-worker', { level: 'silent' }),
    acquireWaitMs: 100,
    metrics: {
      acquired: { inc: () => undefined },
      staleWrites: { inc: () => void stale++ },
      lost: { inc: ({ reason }) => void lost.push(reason) },
    },
  });
  const directory = new TableDirectory({
    ...h.deps,
    seeds: new DbSeedSource(db.prisma),
    checkpoints: new RedisCheckpointStore(redis, prefix),
    idleMs: 60_000,
    ownership,
  });
  return { h, directory, lost, staleWrites: () => stale };
}

const ownerEpoch = async (roomId: string): Promise<bigint> =>
  (await db.prisma.room.findUniqueOrThrow({ where: { id: roomId }, select: { ownerEpoch: true } })).ownerEpoch;

const botSeats = (roomId: string): Promise<number> =>
  db.prisma.membership.count({ where: { roomId, status: 'active', user: { name: { startsWith: 'bot-' } } } });

describe('Postgres writes fenced by the lease epoch (real Redis and Postgres)', () => {
  it('the owner’s bot seats carry its epoch, and the room takes it', async () => {
    const room = await createRoom(db.prisma, [{ name: 'fence1', buyIn: 200 }], BOT_FILL);
    const w = worker();
    const actor = await w.directory.get(room.roomId);
    expect(w.directory.epochOf(room.roomId)).toBe(1);
    await actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: room.users[0]!.id });
    expect(await botSeats(room.roomId)).toBe(2);
    expect(await ownerEpoch(room.roomId)).toBe(1n);
    expect(w.lost).toEqual([]);
    await w.directory.close();
  });

  it('a stale epoch is refused: nothing is written or published, NOT_OWNER, and the worker lets the table go', async () => {
    const room = await createRoom(db.prisma, [{ name: 'fence2', buyIn: 200 }], BOT_FILL);
    // A newer owner (epoch 5) has claimed the room: this worker's lease (epoch 1) is stale. It finds
    // out when it claims the room itself, before it serves the table.
    await db.prisma.$executeRaw`UPDATE "rooms" SET "owner_epoch" = 5 WHERE "id" = ${room.roomId}::uuid`;
    const w = worker();
    await expect(w.directory.get(room.roomId)).rejects.toBeInstanceOf(NotOwnerError);
    expect(w.staleWrites()).toBe(1);
    expect(w.lost).toEqual(['stale_epoch']);
    await vi.waitFor(() => expect(w.directory.peek(room.roomId)).toBeUndefined());
    expect(w.h.publisher.all).toEqual([]);
    expect(await botSeats(room.roomId)).toBe(0);
    expect(await ownerEpoch(room.roomId)).toBe(5n);
    await w.directory.close();
  });

  it('an owner that lost the table without noticing cannot seat a bot once the next owner has claimed the room', async () => {
    const room = await createRoom(db.prisma, [{ name: 'fence4', buyIn: 200 }], BOT_FILL);
    const w = worker();
    const actor = await w.directory.get(room.roomId);
    expect(w.directory.epochOf(room.roomId)).toBe(1);
    expect(await ownerEpoch(room.roomId)).toBe(1n);
    // The next owner took the table (epoch 2) and claimed the room; it has seated nobody yet.
    await db.prisma.$executeRaw`UPDATE "rooms" SET "owner_epoch" = 2 WHERE "id" = ${room.roomId}::uuid`;
    const attach = actor.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: room.users[0]!.id });
    await expect(attach).rejects.toBeInstanceOf(NotOwnerError);
    expect(w.lost).toEqual(['stale_epoch']);
    expect(await botSeats(room.roomId)).toBe(0);
    expect(w.h.publisher.all).toEqual([]);
    await w.directory.close();
  });

  it('after a refusal the epoch counter is raised to the fence, so the next owner passes it at once (a Redis that lost its counters)', async () => {
    const room = await createRoom(db.prisma, [{ name: 'fence3', buyIn: 200 }], BOT_FILL);
    // Postgres saw epoch 40; Redis lost its counters and starts again from 0.
    await db.prisma.$executeRaw`UPDATE "rooms" SET "owner_epoch" = 40 WHERE "id" = ${room.roomId}::uuid`;
    const w = worker();
    await expect(w.directory.get(room.roomId)).rejects.toBeInstanceOf(NotOwnerError);
    await vi.waitFor(() => expect(w.directory.peek(room.roomId)).toBeUndefined());
    // The next acquisition is above the fence: the bots are seated under it.
    const second = await w.directory.get(room.roomId);
    expect(w.directory.epochOf(room.roomId)).toBe(41);
    await second.submit({ kind: 'attach', connectionId: 'c1', streamId: 's', userId: room.users[0]!.id });
    expect(await botSeats(room.roomId)).toBe(2);
    expect(await ownerEpoch(room.roomId)).toBe(41n);
    await w.directory.close();
  });
});
