import { z } from 'zod';

/** BullMQ job names on the hands queue (FELT_HANDS_QUEUE). */
export const HandJobName = { HAND_COMPLETED: 'hand.completed' } as const;
export type HandJobName = (typeof HandJobName)[keyof typeof HandJobName];

const isoInstant = z.iso.datetime({ offset: true });

/**
 * A completed hand as the worker enqueues it and the persister writes it. The job id is the hand id,
 * and the hands table has UNIQUE(hand_id), so a replay is a no-op at both ends.
 */
export const handCompletedJobSchema = z.strictObject({
  // BullMQ job ids may not contain ':' nor look like integers.
  hand_id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'expected letters, digits, _ or -' })
    .refine((s) => !/^\d+$/.test(s), { message: 'must not be all digits' }),
  room_id: z.uuid(),
  hand_no: z.number().int().nonnegative().optional(),
  game: z.string().min(1).max(64),
  limit: z.string().min(1).max(32),
  /** Blinds, antes and bets in force for the hand. */
  blinds: z.json(),
  started_at: isoInstant,
  ended_at: isoInstant,
  /** The hand's record (actions, board, results, seeds): opaque JSON at this layer. */
  payload: z.json(),
});
export type HandCompletedJob = z.infer<typeof handCompletedJobSchema>;

/**
 * Options producers use for a hand job: the hand id as job id (BullMQ dedupes while the job
 * exists), retries with exponential backoff, and failed jobs kept for inspection.
 */
export function handJobOptions(handId: string): {
  jobId: string;
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: { count: number };
  removeOnFail: false;
} {
  return {
    jobId: handId,
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { count: 10_000 },
    removeOnFail: false,
  };
}
