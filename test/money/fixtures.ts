import { randomBytes, randomInt } from 'node:crypto';
import { HandJobName, handJobOptions } from '@felt/platform';
import type { Queue } from 'bullmq';
import {
  MoneyJobName,
  buyIn,
  cashOutJobOptions,
  cashOutJobSchema,
  cashOutRequestFromJob,
  grant,
  normalizeHandJob,
  persistHand,
  refillPracticeWallet,
  requestCashOut,
  withTransaction,
  type CashOutJob,
  type PrismaClient,
} from '@felt/db';
import { parseRoomConfig, type RoomConfigInput } from '@felt/protocol';
import type { HandJob, MoneySink } from './sim-table.js';
import { waitFor } from '../harness/wait.js';

/** Rooms and seated players written straight through @felt/db, as the lobby would leave them. */

export const RAKED_HOLDEM: RoomConfigInput = {
  game: 'holdem',
  limit: 'nl',
  stakes: { smallBlind: 1, bigBlind: 2 },
  seats: 6,
  buyIn: { min: 40, max: 200 },
  // No cap: a binding cap can give a pot negative rake in the engine today (reported).
  rake: { percent: 5, cap: 0, noFlopNoDrop: false },
};

export interface SeededRoom {
  readonly roomId: string;
  readonly users: { readonly id: string; readonly name: string; readonly membershipId: string }[];
}

export async function createUser(prisma: PrismaClient, name: string, grantChips = 10_000n): Promise<string> {
  const unique = `${name}_${randomBytes(3).toString('hex')}`;
  const user = await prisma.user.create({ data: { name: unique, nameKey: unique.toLowerCase(), passwordHash: 'x' } });
  await withTransaction(prisma, (tx) =>
    grant(tx, { userId: user.id, amount: grantChips, idempotencyKey: `signup:${user.id}` }),
  );
  return user.id;
}

export async function createRoom(
  prisma: PrismaClient,
  players: readonly { readonly name: string; readonly buyIn: number }[],
  config: RoomConfigInput = RAKED_HOLDEM,
): Promise<SeededRoom> {
  const parsed = parseRoomConfig(config);
  const userIds: string[] = [];
  for (const p of players) userIds.push(await createUser(prisma, p.name));
  const room = await prisma.room.create({
    data: {
      code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      config: JSON.parse(JSON.stringify(parsed)) as object,
      isPublic: false,
      practice: parsed.practiceChips,
      hostId: userIds[0]!,
    },
  });
  const users: SeededRoom['users'] = [];
  for (const [i, p] of players.entries()) {
    const userId = userIds[i]!;
    const membershipId = await seat(prisma, room.id, userId, i + 1, p.buyIn);
    users.push({ id: userId, name: p.name, membershipId });
  }
  return { roomId: room.id, users };
}

/** A seat and its buy-in in one transaction, as the lobby's join does. */
export async function seat(
  prisma: PrismaClient,
  roomId: string,
  userId: string,
  seatNo: number,
  chips: number,
): Promise<string> {
  return withTransaction(prisma, async (tx) => {
    const room = await tx.room.findUniqueOrThrow({
      where: { id: roomId },
      select: { lastHandNo: true, practice: true },
    });
    const m = await tx.membership.create({
      data: { roomId, userId, seat: seatNo, buyIn: BigInt(chips), joinedAfterHand: room.lastHandNo },
    });
    // A practice room pays from the free practice wallet, refilled first as the lobby does.
    if (room.practice) {
      await refillPracticeWallet(tx, { userId, need: BigInt(chips), idempotencyKey: `practice-refill:${m.id}` });
    }
    await buyIn(tx, { userId, roomId, amount: BigInt(chips), idempotencyKey: `buy-in:${m.id}` });
    return m.id;
  });
}

/** Persists jobs at once, in the order the table produces them (what a persister does with an idle queue). */
export function directSink(prisma: PrismaClient): MoneySink & { hands: HandJob[]; cashOuts: CashOutJob[] } {
  const hands: HandJob[] = [];
  const cashOuts: CashOutJob[] = [];
  return {
    hands,
    cashOuts,
    async hand(job) {
      hands.push(job);
      await persistHand(prisma, normalizeHandJob(job));
    },
    async cashOut(job) {
      cashOuts.push(job);
      await withTransaction(prisma, (tx) =>
        requestCashOut(tx, cashOutRequestFromJob(cashOutJobSchema.parse(job)), new Date()),
      );
    },
  };
}

/** Keeps jobs for the test to deliver (late, out of order, twice). */
export function heldSink(): MoneySink & { hands: HandJob[]; cashOuts: CashOutJob[] } {
  const hands: HandJob[] = [];
  const cashOuts: CashOutJob[] = [];
  return {
    hands,
    cashOuts,
    hand: (job) => {
      hands.push(job);
      return Promise.resolve();
    },
    cashOut: (job) => {
      cashOuts.push(job);
      return Promise.resolve();
    },
  };
}

export function deliverCashOut(prisma: PrismaClient, job: CashOutJob) {
  return withTransaction(prisma, (tx) =>
    requestCashOut(tx, cashOutRequestFromJob(cashOutJobSchema.parse(job)), new Date()),
  );
}

/** Enqueues as a table worker does: job id = hand id, or `cash-out-<request id>`. */
export function queueSink(queue: Queue): MoneySink & { hands: HandJob[]; cashOuts: CashOutJob[] } {
  const hands: HandJob[] = [];
  const cashOuts: CashOutJob[] = [];
  return {
    hands,
    cashOuts,
    async hand(job) {
      hands.push(job);
      await queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
    },
    async cashOut(job) {
      cashOuts.push(job);
      await queue.add(MoneyJobName.CASH_OUT_REQUESTED, job, cashOutJobOptions(job.request_id));
    },
  };
}

/** Waits until `check` holds, polling; throws with `what` after the timeout. */
export async function until(
  check: () => Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 20_000,
): Promise<void> {
  await waitFor(what, async () => (await check()) || undefined, timeoutMs, 50);
}
