import { z } from 'zod';
import { commandIdSchema, handIdSchema, tableIdSchema } from './wire.js';

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
