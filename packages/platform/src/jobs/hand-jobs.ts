import { z } from 'zod';

/** BullMQ job names on the hands queue (FELT_HANDS_QUEUE). */
export const HandJobName = { HAND_COMPLETED: 'hand.completed' } as const;
export type HandJobName = (typeof HandJobName)[keyof typeof HandJobName];

/**
 * A completed hand as the worker enqueues it and the persister writes it. The job id is the hand id,
 * and the hands table has UNIQUE(hand id), so a replay is a no-op at both ends.
 */
export const handCompletedJobSchema = z.object({
  hand_id: z.string().min(1).max(128),
  room_id: z.string().min(1).max(128),
  /** The hand's record (actions, board, results, seeds): opaque JSON at this layer. */
  payload: z.json(),
});
export type HandCompletedJob = z.infer<typeof handCompletedJobSchema>;
