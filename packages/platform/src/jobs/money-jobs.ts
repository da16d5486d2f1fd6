import { z } from 'zod';
import type { HandsQueueJobOptions } from './hand-jobs.js';

/**
 * Money jobs a table worker puts on the hands queue beside `hand.completed` (docs/dev/money-flows.md).
 * They share the queue so that one consumer, the persister, owns every write that follows a table.
 */
export const MoneyJobName = { CASH_OUT_REQUESTED: 'cash_out.requested', HAND_VOIDED: 'hand.voided' } as const;
export type MoneyJobName = (typeof MoneyJobName)[keyof typeof MoneyJobName];

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
  message: 'a lowercase uuid',
});
const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * Why a seat is cashed out. The values of the database's `CashOutReason` enum: @felt/db checks at
 * compile time that the two lists are the same.
 */
export const CASH_OUT_REASONS = ['leave', 'room_close'] as const;
export type CashOutJobReason = (typeof CASH_OUT_REASONS)[number];

/**
 * A worker's cash-out request: the player left (at the end of the hand, if they left during one)
 * or the room was closed. `request_id` is stable for the seat and reason, so re-sending it after a
 * crash or failover is a no-op: `leave-<membershipId>` or `room-close-<membershipId>`.
 */
export const cashOutJobSchema = z.strictObject({
  // Also the tail of the BullMQ job id, which may not contain ':'.
  request_id: z
    .string()
    .min(1)
    .max(120)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, _ or -' }),
  room_id: uuid,
  user_id: uuid,
  reason: z.enum(CASH_OUT_REASONS),
  /** The number of the last hand the table completed before the player left (0: none yet). */
  last_hand_no: z.number().int().nonnegative(),
  /** The player's stack at the table, excluding top-ups the table never added. */
  final_stack: chips,
  /** Top-ups added to the stack since the last hand the worker reported, with the chips added. */
  top_ups_applied: z
    .array(z.strictObject({ id: uuid, applied: chips }))
    .max(100)
    .default([]),
  requested_at: z.iso.datetime({ offset: true }),
});
export type CashOutJob = z.input<typeof cashOutJobSchema>;

/** Producer options: the job id names the request, retries back off, failures stay visible. */
export function cashOutJobOptions(requestId: string): HandsQueueJobOptions {
  return {
    jobId: `cash-out-${requestId}`,
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { count: 10_000 },
    removeOnFail: false,
  };
}

/** Request ids for the seat of one membership (the same in the lobby's ledger mode and from a worker). */
export const cashOutRequestId = {
  leave: (membershipId: string): string => `leave-${membershipId}`,
  roomClose: (membershipId: string): string => `room-close-${membershipId}`,
  /** Escrow left at a closing room with no seat behind it (should not happen; refunded all the same). */
  roomCloseOrphan: (roomId: string, userId: string): string => `room-close-${roomId}-${userId}`,
} as const;

/** Why a hand was voided (the `reason` of @felt/protocol's `hand_voided` message). */
export const VOID_REASONS = ['checkpoint_lost', 'room_closed', 'unreadable', 'engine_blind_failed'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

/**
 * A voided hand, as a worker reports it beside completed hands (job id = hand id, so a re-send is
 * the same job). It moves no chips: every stack is back at its hand-start value, which is what the
 * escrows already hold (a hand moves escrow only when it is persisted complete). The persister
 * records it as a `hands` row marked voided, with the players and their hand-start stacks and no
 * ledger entries, pots or actions. A void takes no hand number, so it never holds up the room's
 * numbered hands nor the cash-outs waiting for them.
 */
export const voidedHandJobSchema = z.strictObject({
  kind: z.literal('voided'),
  hand_id: uuid,
  room_id: uuid,
  /** The number the hand would have taken, when known; informative only (a void takes none). */
  hand_no: z.number().int().min(1).optional(),
  reason: z.enum(VOID_REASONS),
  /** The game and limit of the hand when known (a lost checkpoint leaves only the hand id). */
  game: z.string().min(1).max(64).optional(),
  limit: z.string().min(1).max(32).optional(),
  started_at: z.iso.datetime({ offset: true }).optional(),
  voided_at: z.iso.datetime({ offset: true }),
  /**
   * The players and their hand-start stacks: those dealt in, or, when the hand itself was lost,
   * every player seated from the room rows.
   */
  players: z
    .array(
      z.strictObject({ seat: z.number().int().min(1).max(10), user_id: uuid, name: z.string().max(64), stack: chips }),
    )
    .max(10),
});
export type VoidedHandJob = z.input<typeof voidedHandJobSchema>;

/** Producer options for a voided hand: the same job id as its completed record would have had. */
export function voidedHandJobOptions(handId: string): HandsQueueJobOptions {
  return { ...cashOutJobOptions(handId), jobId: handId };
}
