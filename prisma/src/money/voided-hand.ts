import { voidedHandJobSchema } from '@felt/platform';
import type { Prisma, PrismaClient, TxClient } from '../client.js';
import { HandConflictError, HandRecordInvalidError } from '../errors.js';
import { HandDealing } from './hand-record.js';
import { handKey, isHandIdRace } from './hand-lookup.js';
import { ensureHandPartitions, forgetHandPartitionsOn } from './hand-partitions.js';
import { mapLedgerError } from '../ledger.js';
import { withTransaction } from '../transaction.js';

export type VoidedHandResult = {
  readonly result: 'written' | 'duplicate';
  readonly handId: string;
  readonly roomId: string;
};

/**
 * Records a voided hand (docs/dev/money-flows.md, "A voided hand"): a `hands` row with `voided_reason`,
 * no hand number, no pots, actions or cards, and a `hand_players` row per player known to the
 * database with their hand-start stack as both starting and final stack (net 0), so that their
 * history shows the void. No ledger entry is posted: the escrows already hold the hand-start
 * stacks, because a hand moves escrow only when it is persisted complete.
 *
 * - Idempotent: the same hand id again is `duplicate` and changes nothing.
 * - A hand id already persisted as a completed hand throws HandConflictError (permanent).
 * - A void takes no number, so it needs no earlier hand and never holds up later ones or the
 *   cash-outs waiting on the room's cursor.
 * - An engine-blind hand its players failed to deal (`engine_blind_failed`, possibly before the deal:
 *   no game, limit nor number then) is recorded as `dealing: engine_blind`; the job's other reasons
 *   do not say how the hand was dealt, and are recorded as `standard`.
 */
export async function persistVoidedHand(prisma: PrismaClient, job: unknown): Promise<VoidedHandResult> {
  const parsed = voidedHandJobSchema.safeParse(job);
  if (!parsed.success) {
    const id = (job as { hand_id?: unknown } | null)?.hand_id;
    throw new HandRecordInvalidError(
      typeof id === 'string' ? id : 'unknown',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    );
  }
  const v = parsed.data;
  try {
    await ensureHandPartitions(prisma, [new Date(v.voided_at)]);
    return await withTransaction(prisma, (tx) => write(tx, v, job), { retryOn: isHandIdRace });
  } catch (err) {
    forgetHandPartitionsOn(prisma, err);
    throw mapLedgerError(err);
  }
}

async function write(
  tx: TxClient,
  v: ReturnType<typeof voidedHandJobSchema.parse>,
  raw: unknown,
): Promise<VoidedHandResult> {
  const key = await handKey(tx, v.hand_id);
  const existing = key ? await tx.hand.findUnique({ where: key, select: { roomId: true, voidedReason: true } }) : null;
  if (existing) {
    if (existing.voidedReason === null || existing.roomId !== v.room_id) {
      throw new HandConflictError(v.hand_id, v.room_id, v.hand_no ?? 0, 'persisted as a completed hand');
    }
    return { result: 'duplicate', handId: v.hand_id, roomId: v.room_id };
  }
  const room = await tx.room.findUnique({ where: { id: v.room_id }, select: { id: true } });
  if (!room) throw new HandRecordInvalidError(v.hand_id, [`room ${v.room_id} does not exist`]);
  const voidedAt = new Date(v.voided_at);
  await tx.hand.create({
    data: {
      handId: v.hand_id,
      roomId: v.room_id,
      handNo: null,
      game: v.game ?? 'unknown',
      limit: v.limit ?? 'unknown',
      blinds: {},
      startedAt: v.started_at !== undefined ? new Date(v.started_at) : voidedAt,
      endedAt: voidedAt,
      payload: raw as Prisma.InputJsonObject,
      voidedReason: v.reason,
      dealing: v.reason === 'engine_blind_failed' ? HandDealing.ENGINE_BLIND : HandDealing.STANDARD,
    },
  });
  // Only players the database knows (a table without Postgres-funded bots may list others).
  const users = await tx.user.findMany({
    where: { id: { in: v.players.map((p) => p.user_id) } },
    select: { id: true, name: true },
  });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const players = v.players.filter((p) => nameOf.has(p.user_id));
  if (players.length > 0) {
    await tx.handPlayer.createMany({
      data: players.map((p) => ({
        handId: v.hand_id,
        seat: p.seat,
        userId: p.user_id,
        name: p.name || (nameOf.get(p.user_id) ?? ''),
        startingStack: BigInt(p.stack),
        contributed: 0n,
        returned: 0n,
        won: 0n,
        rakePaid: 0n,
        finalStack: BigInt(p.stack),
        net: 0n,
        folded: false,
        endedAt: voidedAt,
      })),
    });
  }
  return { result: 'written', handId: v.hand_id, roomId: v.room_id };
}
