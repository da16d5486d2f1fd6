import { z } from 'zod';
import { cardSchema, commandIdSchema, epochMsSchema, handIdSchema, seatNumberSchema, tableIdSchema } from './wire.js';

// Engine-blind dealing's client frames (docs/fairness.md, "Engine-blind dealing"): the values of
// @felt/blind's KeyProof, Ciphertext, ShuffleProof and DecryptionShare, as @felt/blind makes them.
// zod checks only their shape and bounds; whether a point or a proof is valid is @felt/blind's check,
// at the table. No field may be named like a secret of the SDK's privacy auditor (`deck`, `dealt`, …).

/** Cards in the largest deck (a position is 0 to BLIND_MAX_CARDS - 1). */
export const BLIND_MAX_CARDS = 52;
/** The most shadow shuffles a shuffle proof may open (@felt/blind's MAX_LAMBDA). */
export const BLIND_MAX_OPENINGS = 256;

export const hex32Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: 'expected 32 bytes as 64 lowercase hex digits' })
  .describe('32 bytes as 64 lowercase hex digits: a ristretto255 point, or a scalar little-endian.');

const blindPositionSchema = z
  .number()
  .int()
  .min(0)
  .max(BLIND_MAX_CARDS - 1)
  .describe('A deck position, 0-based.');

export const blindCiphertextSchema = z
  .strictObject({ c1: hex32Schema, c2: hex32Schema })
  .describe('One encrypted card: ElGamal (c1, c2) under the hand’s joint key.');

export const blindKeySchema = z
  .strictObject({
    type: z.literal('blind_key'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    command_id: commandIdSchema.optional(),
    proof: z
      .strictObject({
        Y: hex32Schema.describe('Your public key for this hand, Y = x·G.'),
        c: hex32Schema.describe('The Schnorr proof’s challenge.'),
        s: hex32Schema.describe('The Schnorr proof’s response.'),
      })
      .describe('Your key with its proof of knowledge (@felt/blind `proveKey`).'),
  })
  .describe(
    'Engine-blind dealing, step 1 (docs/fairness.md, "Engine-blind dealing"): your public key for the hand, ' +
      'from a seat dealt into it. Refused with `not_engine_blind` while the table does not deal engine-blind ' +
      'hands.',
  );

const seedOpeningSchema = z.strictObject({
  seed: hex32Schema.describe('Challenge bit 0: the seed the shadow shuffle was expanded from.'),
});

const permOpeningSchema = z.strictObject({
  perm: z
    .array(blindPositionSchema)
    .max(BLIND_MAX_CARDS)
    .describe('Challenge bit 1: the permutation from the shadow shuffle to your output.'),
  rand: z.array(hex32Schema).max(BLIND_MAX_CARDS).describe('Challenge bit 1: the re-randomization differences.'),
});

export const blindShuffleSchema = z
  .strictObject({
    type: z.literal('blind_shuffle'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    command_id: commandIdSchema.optional(),
    output: z
      .array(blindCiphertextSchema)
      .min(2)
      .max(BLIND_MAX_CARDS)
      .describe('The encrypted cards after your shuffle, in deck order.'),
    proof: z
      .strictObject({
        openings: z
          .array(z.union([seedOpeningSchema, permOpeningSchema]))
          .min(1)
          .max(BLIND_MAX_OPENINGS)
          .describe('One opening per shadow shuffle, in order.'),
      })
      .describe('The shuffle proof (@felt/blind `shuffleDeck`).'),
  })
  .describe(
    'Engine-blind dealing, step 2: your shuffle of the encrypted cards, at your turn. The one frame allowed ' +
      'past `GATEWAY_MAX_PAYLOAD`, up to `GATEWAY_MAX_BLIND_PAYLOAD` (default 163840 bytes). Refused with ' +
      '`not_engine_blind` while the table does not deal engine-blind hands.',
  );

export const blindShareSchema = z
  .strictObject({
    position: blindPositionSchema,
    D: hex32Schema.describe('Your decryption share, D = x·c1.'),
    c: hex32Schema.describe('The Chaum–Pedersen proof’s challenge.'),
    s: hex32Schema.describe('The Chaum–Pedersen proof’s response.'),
  })
  .describe('Your decryption share of the card at one position, with its proof (@felt/blind `decryptionShare`).');

export const blindSharesSchema = z
  .strictObject({
    type: z.literal('blind_shares'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    command_id: commandIdSchema.optional(),
    shares: z.array(blindShareSchema).min(1).max(BLIND_MAX_CARDS),
  })
  .describe(
    'Engine-blind dealing, steps 3 and on: your decryption shares, for another seat’s hole cards, the board, ' +
      'a show, or released early with a fold. Refused with `not_engine_blind` while the table does not deal ' +
      'engine-blind hands.',
  );

export type BlindKeyFrame = z.infer<typeof blindKeySchema>;
export type BlindShuffleFrame = z.infer<typeof blindShuffleSchema>;
export type BlindSharesFrame = z.infer<typeof blindSharesSchema>;

// ---------------------------------------------------------------------------------------------
// What the table says of engine-blind dealing (server -> client)

export const blindKeyProofSchema = blindKeySchema.shape.proof;
export const blindShuffleProofSchema = blindShuffleSchema.shape.proof;

export const DealingMode = { STANDARD: 'standard', ENGINE_BLIND: 'engine_blind' } as const;
export type DealingMode = (typeof DealingMode)[keyof typeof DealingMode];
export const DEALING_MODES = Object.values(DealingMode) as [DealingMode, ...DealingMode[]];

export const blindFailureSchema = z
  .strictObject({
    reason: z.enum(['timeout', 'bad_proof', 'not_a_card']),
    step: z.enum(['key', 'shuffle', 'shares']),
    seats: z.array(seatNumberSchema).describe('Whom to blame: whose proof failed, or who still owed the step.'),
  })
  .describe('Why an engine-blind hand failed.');
export type BlindFailureView = z.infer<typeof blindFailureSchema>;

export const blindHandViewSchema = z
  .strictObject({
    hand_id: handIdSchema,
    seats: z.array(seatNumberSchema).describe('The participants (the seats dealt in), in shuffle order.'),
    lambda: z.number().int().min(1).max(BLIND_MAX_OPENINGS).describe('The shuffle proofs’ shadow shuffles.'),
    phase: z.enum(['keys', 'shuffle', 'play', 'failed']),
    keys: z.record(z.string(), hex32Schema).describe('Seat → the public key it sent for this hand.'),
    joint_key: hex32Schema.nullable(),
    encrypted: z
      .array(blindCiphertextSchema)
      .describe('The encrypted cards as they stand: the initial encoding, then each shuffle’s output.'),
    shuffled: z.number().int().nonnegative().describe('How many participants have shuffled.'),
    shuffler: seatNumberSchema.nullable().describe('Whose shuffle is owed now, while shuffling.'),
    deadline: epochMsSchema.nullable().describe('When the step owed now is due (absolute ms); null when none is.'),
    positions: z
      .array(
        z.strictObject({
          position: blindPositionSchema,
          to: z.union([seatNumberSchema, z.literal('board')]),
          due: epochMsSchema,
          card: cardSchema.optional().describe('Once opened for everyone (a board card, or a shown card).'),
          shares: z
            .record(z.string(), hex32Schema)
            .describe('Seat → decryption share: of a board or shown card; of a hole card, in its owner’s view only.'),
        }),
      )
      .describe('Positions dealt so far, by position.'),
    owed: z
      .strictObject({ key: z.boolean(), shuffle: z.boolean(), positions: z.array(blindPositionSchema) })
      .nullable()
      .describe('What you still owe (a participant’s view only).'),
    failure: blindFailureSchema.nullable(),
  })
  .describe(
    'One engine-blind hand as you may see it (@felt/blind `blindView`): public values only. The SDK’s ' +
      'participant answers what `owed` lists and reads its hole cards from the shares of its positions.',
  );
export type BlindHandView = z.infer<typeof blindHandViewSchema>;

export const dealingViewSchema = z
  .strictObject({
    mode: z.enum(DEALING_MODES).describe('How the current (or next) hand is dealt.'),
    downgraded: z
      .strictObject({ hand_id: handIdSchema, failure: blindFailureSchema })
      .nullable()
      .describe(
        'The table switched to standard dealing for the rest of its session after this engine-blind hand ' +
          'failed (show the banner); null while it deals engine-blind.',
      ),
    blind: blindHandViewSchema.nullable().describe('The engine-blind hand on the table, if any.'),
  })
  .describe('Rooms created with `dealing: "engine_blind"` only (docs/fairness.md, "Engine-blind dealing").');
export type DealingView = z.infer<typeof dealingViewSchema>;
