import { z } from 'zod';

/** What became of a hands-queue job: the hand's write, or the cash-out's status. */
export const PERSIST_OUTCOMES = [
  'written',
  'duplicate',
  'superseded',
  'waiting',
  'retrying',
  'failed',
  'pending',
  'paid',
  'mismatch',
] as const;

/**
 * What the persister publishes on `P persist-outcomes` (`redisKeys(prefix).persistOutcomes`) after
 * each job (at most once; Postgres is the truth: `rooms.last_hand_no` and `cash_outs.status`).
 * Workers use it for logs and metrics (docs/dev/money-flows.md §6).
 */
export interface PersistOutcome {
  readonly kind: 'hand' | 'cash_out';
  /** The hand id or cash-out request id. */
  readonly id: string;
  readonly room_id: string;
  readonly hand_no?: number;
  /**
   * written, duplicate, superseded (its table was rebuilt from the room rows without it: never
   * written), waiting (an earlier hand is missing), retrying, failed; or the cash-out status.
   */
  readonly outcome: (typeof PERSIST_OUTCOMES)[number];
  readonly attempts: number;
  /** A stable error code when it failed or will retry. */
  readonly error?: string;
}

/** How a listener reads a published outcome: unknown fields are dropped, bounds keep a bad one out. */
export const persistOutcomeSchema = z.object({
  kind: z.enum(['hand', 'cash_out']),
  id: z.string().min(1).max(200),
  room_id: z.string().min(1).max(64),
  hand_no: z.number().int().nonnegative().optional(),
  outcome: z.enum(PERSIST_OUTCOMES),
  attempts: z.number().int().nonnegative(),
  error: z.string().max(200).optional(),
});
