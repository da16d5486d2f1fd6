import type { PrismaClient, TxClient } from '../client.js';
import { isUniqueViolation } from '../pg-error.js';

/** A hand's key: its id and the `ended_at` that names its partition. */
export interface HandKeyWhere {
  readonly handId_endedAt: { readonly handId: string; readonly endedAt: Date };
}

/**
 * The key that reads a hand by its id from the one partition holding it (`hand_ids` names its
 * `ended_at`), or null when no hand has that id. `prisma.hand.findUnique({ where: key, include })`
 * then reads its players, actions, cards and pots from their partitions too.
 */
export async function handKey(prisma: PrismaClient | TxClient, handId: string): Promise<HandKeyWhere | null> {
  const key = await prisma.handKey.findUnique({ where: { handId } });
  return key ? { handId_endedAt: { handId, endedAt: key.endedAt } } : null;
}

/**
 * The worker's hand record in a stored `hands.payload`: the job as it was queued keeps it under
 * `payload` (`{format, hand, settlement, …}`); older rows hold the record itself.
 */
export function storedHandRecord(stored: unknown): Record<string, unknown> {
  const job = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  const inner = job.payload;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) && 'format' in inner ? inner : job;
}

/**
 * Two writers of one hand id at once (a voided hand does not take the room lock): the second fails
 * on `hand_ids_pkey`, which the insert's trigger writes; its transaction can run again and find the
 * hand written. Prisma names the key's field (P2002), pg the constraint.
 */
export function isHandIdRace(err: unknown): boolean {
  const e = err as { code?: unknown; meta?: { target?: unknown } };
  if (e?.code === 'P2002' && JSON.stringify(e.meta?.target ?? '').includes('hand_id')) return true;
  return isUniqueViolation(err, 'hand_ids_pkey');
}
