import { z } from 'zod';

// The hands queue's contracts (FELT_HANDS_QUEUE): this file holds the completed hand; the money
// jobs (cash-outs, voided hands) are in money-jobs.ts and the persister's answer in persist-outcome.ts.
// Producers (table workers) and the consumer (the persister) both take them from here, so the
// worker's domain needs no database package to build a job.

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
  /**
   * The lease epoch of the worker that queued the job (none: an unfenced producer). After the
   * table was built again from the room rows under a later epoch, a hand of an older one numbered
   * past the hand the rebuild went on from is refused as superseded (docs/dev/money-flows.md).
   */
  epoch: z.number().int().positive().optional(),
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

/** The BullMQ options of every job a producer puts on the hands queue. */
export interface HandsQueueJobOptions {
  jobId: string;
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  removeOnComplete: { count: number };
  removeOnFail: false;
}

/**
 * Options producers use for a hand job: the hand id as job id (BullMQ dedupes while the job
 * exists), retries with exponential backoff, and failed jobs kept for inspection.
 */
export function handJobOptions(handId: string): HandsQueueJobOptions {
  return {
    jobId: handId,
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
    removeOnComplete: { count: 10_000 },
    removeOnFail: false,
  };
}

// ---------------------------------------------------------------------------------------------
// The completed-hand record the table worker produces (docs/dev/money-flows.md, "Every completed
// hand"). It extends the envelope above: the same top-level fields, with `payload` typed. Strict
// where the worker owns the shape, loose where the engine does (operations and settlement are the
// engine's own JSON, read by field).

const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const signedChips = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const seatNo = z.number().int().min(1).max(10);
const card = z.string().regex(/^[2-9TJQKA][cdhs]$/, { message: 'a card such as "As"' });
const lowerUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
  message: 'a lowercase uuid',
});
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, { message: '64 lowercase hex digits' });

export const HAND_RECORD_FORMAT = 'felt-hand-record/1';

/** One seat dealt into the hand, as the table knew it when the hand started. */
export const handRecordSeatSchema = z.strictObject({
  seat: seatNo,
  /** The user id; a built-in bot has its own lowercase uuid and `bot: true`. */
  user_id: lowerUuid,
  name: z.string().max(64),
  starting_stack: chips,
  bot: z.boolean(),
});

/** The reveal record of docs/fairness.md (`toRevealRecord`), as `felt verify` checks it. */
export const handRevealSchema = z.strictObject({
  hand_id: lowerUuid,
  seed_commit: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  server_seed: hex64,
  client_seeds: z.array(z.strictObject({ seat: seatNo, seed: hex64 })),
  deck_seed: hex64,
  variant: z.string().min(1),
  version: z.string().min(1),
  deck: z.enum(['standard52', 'short36']),
  dealt: z.array(z.strictObject({ index: z.number().int().nonnegative(), card })).min(1),
  reshuffles: z.array(z.strictObject({ at_index: z.number().int().nonnegative(), discards: z.array(card) })).optional(),
});

export const handRecordPayloadSchema = z
  .strictObject({
    format: z.literal(HAND_RECORD_FORMAT),
    /** `Hand.toJSON()`: the setup (deck, players with user ids, forced bets) and the whole operation log. */
    hand: z.looseObject({
      format: z.literal('felt-hand/1'),
      setup: z.looseObject({
        handId: lowerUuid,
        game: z.string().min(1),
        limit: z.string().min(1),
        button: z.number().int().nonnegative(),
        players: z
          .array(z.looseObject({ seat: seatNo, id: lowerUuid, stack: chips }))
          .min(2)
          .max(10),
        /** The deck in dealing order; empty for an engine-blind hand (`dealing: 'blind'`), dealt by its players. */
        deck: z.array(card),
        /** Absent (or `standard`) for a hand dealt from the committed seed; `blind` for an engine-blind one. */
        dealing: z.enum(['standard', 'blind']).optional(),
        deckSeed: z.string().optional(),
      }),
      operations: z.array(z.looseObject({ type: z.string().min(1) })).min(1),
    }),
    /** `hand.settlement`: per pot the amount, eligible seats, winners and rake; per player the net. */
    settlement: z.looseObject({
      handId: lowerUuid,
      pots: z.array(
        z.looseObject({
          index: z.number().int().nonnegative(),
          amount: chips,
          eligible: z.array(seatNo),
          rake: chips,
          winners: z.array(z.looseObject({ seat: seatNo, side: z.string(), gross: chips, net: chips })),
        }),
      ),
      rake: z.looseObject({ amount: chips }),
      players: z.array(
        z.looseObject({ seat: seatNo, id: lowerUuid, startingStack: chips, finalStack: chips, net: signedChips }),
      ),
    }),
    /** The seeds and every dealt card; absent for an engine-blind hand, which has no seed to reveal. */
    reveal: handRevealSchema.optional(),
    seats: z.array(handRecordSeatSchema).min(2).max(10),
    /** Top-ups applied to stacks before this hand started. */
    top_ups: z.array(z.strictObject({ id: lowerUuid, applied: chips })).max(100),
  })
  .superRefine((payload, ctx) => {
    // A standard hand has its deck and its reveal; an engine-blind hand has neither (its players dealt it).
    const blind = payload.hand.setup.dealing === 'blind';
    if (blind && payload.hand.setup.deck.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['hand', 'setup', 'deck'], message: 'an engine-blind hand has no deck' });
    }
    if (blind && payload.hand.setup.deckSeed !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['hand', 'setup', 'deckSeed'],
        message: 'an engine-blind hand has no deck seed',
      });
    }
    if (!blind && payload.hand.setup.deck.length < 36) {
      ctx.addIssue({ code: 'custom', path: ['hand', 'setup', 'deck'], message: 'a standard hand needs its deck' });
    }
    if (blind !== (payload.reveal === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['reveal'],
        message: blind ? 'an engine-blind hand has no reveal' : 'a standard hand needs its reveal',
      });
    }
  });
export type HandRecordPayload = z.infer<typeof handRecordPayloadSchema>;

/**
 * The job the table worker enqueues for every completed hand: the envelope with a hand number
 * (1, 2, … per table) and the typed record. The worker validates each job with it before enqueueing.
 */
export const completedHandJobSchema = handCompletedJobSchema.extend({
  hand_id: lowerUuid,
  hand_no: z.number().int().min(1),
  payload: handRecordPayloadSchema,
});
export type CompletedHandJob = z.infer<typeof completedHandJobSchema>;
