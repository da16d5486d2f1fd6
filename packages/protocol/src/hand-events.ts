import { z } from 'zod';
import {
  cardSchema,
  chipsSchema,
  epochMsSchema,
  handIdSchema,
  seatNumberSchema,
  seedCommitSchema,
  seedHexSchema,
  turnTokenSchema,
} from './wire.js';
import { handScoped, validActionsSchema, variantViewSchema } from './table-views.js';
import {
  blindCiphertextSchema,
  blindFailureSchema,
  blindKeyProofSchema,
  blindShareSchema,
  blindShuffleProofSchema,
  BLIND_MAX_CARDS,
  hex32Schema,
} from './blind-frames.js';

// Server -> client, hand-scoped: each carries table_id, table_seq, hand_id and hand_seq.
// ---------------------------------------------------------------------------------------------
// Hand events

export const ForcedBetKindView = {
  ANTE: 'ante',
  BIG_BLIND_ANTE: 'bb_ante',
  SMALL_BLIND: 'small_blind',
  BIG_BLIND: 'big_blind',
  BUTTON_BLIND: 'button_blind',
  LIVE_POST: 'live_post',
  DEAD_BLIND: 'dead_blind',
} as const;
export type ForcedBetKindView = (typeof ForcedBetKindView)[keyof typeof ForcedBetKindView];

export const seedCommitMessageSchema = z
  .strictObject({
    type: z.literal('seed_commit'),
    ...handScoped,
    seed_commit: seedCommitSchema,
    window_closes_at: epochMsSchema.describe(
      'The client-seed window closes at this server time (1.5 s after the commit by default), or earlier once ' +
        'every seated human dealt in has sent a seed.',
    ),
    seats: z.array(seatNumberSchema).describe('The seats to be dealt in; each may send one client_seed.'),
  })
  .describe('A new hand: its id and the commitment to its server seed, sent before any card is dealt.');

export const handStartedSchema = z
  .strictObject({
    type: z.literal('hand_started'),
    ...handScoped,
    variant: variantViewSchema,
    button: seatNumberSchema,
    seats: z.array(seatNumberSchema).describe('Seats dealt in.'),
    forced_bets: z
      .array(
        z.strictObject({
          seat: seatNumberSchema,
          kind: z.enum(Object.values(ForcedBetKindView) as [ForcedBetKindView, ...ForcedBetKindView[]]),
          amount: chipsSchema.describe('Chips posted (less than nominal when the stack was short).'),
          all_in: z.boolean(),
        }),
      )
      .describe('Antes and blinds, in posting order.'),
  })
  .describe('The deck is fixed and the forced bets are posted; hole cards follow.');

export const holeCardsDealtSchema = z
  .strictObject({
    type: z.literal('hole_cards_dealt'),
    ...handScoped,
    seat: seatNumberSchema,
    street: z.string(),
    cards: z.array(cardSchema).describe('The cards just dealt to you.'),
    up: z.array(z.boolean()).describe('Per card: dealt face up (everyone sees it in street_revealed).'),
    draw: z.boolean().optional().describe('true when the cards replace your discards (draw games).'),
  })
  .describe('Your own new hole cards. Only the seat’s player receives it; nobody else ever sees these values.');

export const streetRevealedSchema = z
  .strictObject({
    type: z.literal('street_revealed'),
    ...handScoped,
    street: z.string(),
    street_index: z.number().int().nonnegative(),
    board: z.array(cardSchema).describe('Community cards dealt at this street (may be empty).'),
    up_cards: z
      .array(z.strictObject({ seat: seatNumberSchema, cards: z.array(cardSchema) }))
      .describe('Stud: the face-up cards each seat received at this street.'),
  })
  .describe('A new street (a betting or draw round) begins, with the cards everyone may see.');

export const yourTurnSchema = z
  .strictObject({
    type: z.literal('your_turn'),
    ...handScoped,
    seat: seatNumberSchema,
    turn_token: turnTokenSchema,
    deadline: epochMsSchema.describe('The action clock ends here (absolute ms); the time bank runs after it.'),
    time_bank_ms: z.number().int().nonnegative(),
    valid_actions: validActionsSchema,
  })
  .describe('To the actor only: it is your turn. Answer with `action` carrying this turn_token.');

export const turnWarningSchema = z
  .strictObject({
    type: z.literal('turn_warning'),
    ...handScoped,
    seat: seatNumberSchema,
    expires_at: epochMsSchema.describe('When the clock will act for the seat (absolute ms).'),
  })
  .describe('The actor has the warning period left (10 s by default) before the clock acts.');

export const playerActionSchema = z
  .strictObject({
    type: z.literal('player_action'),
    ...handScoped,
    seat: seatNumberSchema,
    action: z
      .enum(['fold', 'check', 'call', 'bet', 'raise', 'bring_in', 'discard'])
      .describe('What the seat did (an all-in is the bet, call or raise it amounted to; a completion is a bet).'),
    amount: chipsSchema.describe('Chips the action added to the pot (0 for fold, check, discard).'),
    to: chipsSchema.optional().describe('bet, raise: the seat’s round total after it.'),
    all_in: z.boolean(),
    discarded: z.number().int().nonnegative().optional().describe('discard: how many cards (0: stood pat).'),
    timeout: z.boolean().optional().describe('true when the clock took the decision (or the seat was leaving).'),
  })
  .describe('A decision, public to the table. The authoritative event for action history.');

export const RevealTiming = {
  /** Every live hand turned up before an all-in runout deals the remaining cards. */
  ALL_IN_RUNOUT: 'all_in_runout',
  /** Hands turned up after the last betting round. */
  SHOWDOWN: 'showdown',
} as const;
export type RevealTiming = (typeof RevealTiming)[keyof typeof RevealTiming];

export const showdownSchema = z
  .strictObject({
    type: z.literal('showdown'),
    ...handScoped,
    reveal_timing: z.enum([RevealTiming.ALL_IN_RUNOUT, RevealTiming.SHOWDOWN]),
    shown: z
      .array(
        z.strictObject({
          seat: seatNumberSchema,
          cards: z.array(cardSchema),
          reason: z.string().describe('last_aggressor, first_to_show, all_in_required, winner_required, …'),
        }),
      )
      .describe('Hands turned up, in showing order.'),
    mucked: z.array(seatNumberSchema).describe('Seats that mucked without showing.'),
  })
  .describe('Hands turned up at an all-in runout or at showdown. Only these become visible to everyone.');

export const handResultSchema = z
  .strictObject({
    type: z.literal('hand_result'),
    ...handScoped,
    pots: z.array(
      z.strictObject({
        index: z.number().int().nonnegative(),
        amount: chipsSchema,
        rake: chipsSchema,
        eligible: z.array(seatNumberSchema),
        winners: z.array(
          z.strictObject({
            seat: seatNumberSchema,
            amount: chipsSchema.describe('Net of rake.'),
            side: z.enum(['high', 'low', 'uncontested']),
          }),
        ),
      }),
    ),
    uncalled: z.array(z.strictObject({ seat: seatNumberSchema, amount: chipsSchema })),
    rake: chipsSchema,
    players: z.array(
      z.strictObject({
        seat: seatNumberSchema,
        net: z.number().int().describe('Chips won or lost in the hand.'),
        stack: chipsSchema.describe('Stack after the hand.'),
      }),
    ),
    hands: z
      .array(
        z.strictObject({
          seat: seatNumberSchema,
          names: z.array(z.string().nullable()).describe('Per showdown side (high, low): the hand’s name.'),
        }),
      )
      .describe('Judged hands at showdown (only shown hands are judged in public).'),
  })
  .describe('The hand is settled. Σ net + rake = 0.');

export const cardsShownSchema = z
  .strictObject({
    type: z.literal('cards_shown'),
    ...handScoped,
    seat: seatNumberSchema,
    cards: z.array(cardSchema),
  })
  .describe('A player chose to show a finished hand (show_cards).');

export const revealRecordSchema = z
  .strictObject({
    hand_id: handIdSchema,
    seed_commit: seedCommitSchema,
    server_seed: seedHexSchema,
    client_seeds: z.array(z.strictObject({ seat: seatNumberSchema, seed: seedHexSchema })),
    deck_seed: seedHexSchema,
    variant: z.string(),
    version: z.string().describe('felt-deck-v1'),
    deck: z.enum(['standard52', 'short36']),
    dealt: z.array(z.strictObject({ index: z.number().int().nonnegative(), card: cardSchema })),
    reshuffles: z
      .array(z.strictObject({ at_index: z.number().int().nonnegative(), discards: z.array(cardSchema) }))
      .optional(),
  })
  .describe('The reveal record of docs/fairness.md, as `felt verify` and @felt/client’s verifyReveal check it.');
export type RevealRecordView = z.infer<typeof revealRecordSchema>;

export const seedRevealSchema = z
  .strictObject({
    type: z.literal('seed_reveal'),
    ...handScoped,
    reveal: revealRecordSchema,
  })
  .describe(
    'After hand_result: the server seed, the client seeds that counted, the deck seed and every dealt card ' +
      'with its deck index, to verify the hand. Revealing the server seed reveals the whole deck (docs/fairness.md, ' +
      'honest limits), which is why it comes only once the hand is over.',
  );

export const HandVoidReason = {
  /** The table's checkpoint was missing or corrupt when a worker took it over mid-hand. */
  CHECKPOINT_LOST: 'checkpoint_lost',
  /**
   * The room was closed during the hand: earlier versions only. A close now lets the hand finish, so
   * this reason is found only on hands stored before that.
   */
  ROOM_CLOSED: 'room_closed',
  /** The checkpoint was read but its hand no longer replays. */
  UNREADABLE: 'unreadable',
  /**
   * Engine-blind dealing: a player's key, shuffle or share did not arrive in time or did not verify
   * (`blind_failure` says which and whose). The table deals standard hands from now on.
   */
  ENGINE_BLIND_FAILED: 'engine_blind_failed',
} as const;
export type HandVoidReason = (typeof HandVoidReason)[keyof typeof HandVoidReason];
export const HAND_VOID_REASONS = Object.values(HandVoidReason) as [HandVoidReason, ...HandVoidReason[]];

export const handVoidedSchema = z
  .strictObject({
    type: z.literal('hand_voided'),
    ...handScoped,
    reason: z.enum(HAND_VOID_REASONS),
    blind_failure: blindFailureSchema.optional().describe('With engine_blind_failed: the step and whom to blame.'),
    stacks: z
      .array(z.strictObject({ seat: seatNumberSchema, stack: chipsSchema }))
      .describe('Each seat dealt in (or, when the hand itself was lost, each seated player) and its stack now.'),
  })
  .describe(
    'The hand is void: nobody won or lost anything in it and every stack is back at its hand-start value. ' +
      'No hand_result or seed_reveal follows; the turn, if any, is over. The ledger records the hand as voided.',
  );

export const blindStepSchema = z
  .strictObject({
    type: z.literal('blind_step'),
    ...handScoped,
    seat: seatNumberSchema.describe('The participant who sent it.'),
    key: blindKeyProofSchema.optional().describe('A key with its proof of knowledge.'),
    shuffle: z
      .strictObject({
        output: z.array(blindCiphertextSchema).min(2).max(BLIND_MAX_CARDS),
        proof: blindShuffleProofSchema,
      })
      .optional()
      .describe('A shuffle with its proof, as the table relays it once.'),
    shuffle_digest: hex32Schema
      .optional()
      .describe(
        'In a resync replay, in place of `shuffle`: SHA-256 of the relayed shuffle’s JSON (the table keeps ' +
          'no proof in its event buffer). A participant that missed the relay checks the rest from snapshots.',
      ),
    shares: z
      .array(blindShareSchema)
      .optional()
      .describe('Decryption shares with their proofs: those of a hole card only to its owner.'),
  })
  .refine(
    (m) => [m.key, m.shuffle, m.shuffle_digest, m.shares].filter((v) => v !== undefined).length === 1,
    'a blind_step carries exactly one of key, shuffle, shuffle_digest and shares',
  )
  .describe(
    'Engine-blind dealing: a participant’s step the table accepted, relayed so that every participant can ' +
      'check its proof for itself (docs/fairness.md, "Engine-blind dealing"). `table_state.dealing.blind` ' +
      'follows with its effect.',
  );
