import { z } from 'zod';
import { ERROR_CODES } from './error-codes.js';
import {
  cardSchema,
  chipsSchema,
  commandIdSchema,
  epochMsSchema,
  handIdSchema,
  handSeqSchema,
  prevTableSeqSchema,
  seatNumberSchema,
  seedCommitSchema,
  seedHexSchema,
  stateHashSchema,
  tableIdSchema,
  tableSeqSchema,
  turnTokenSchema,
} from './wire.js';

// Server -> client. Every table-scoped message carries table_id and table_seq; hand-scoped ones also
// carry hand_id and hand_seq. Messages of the live stream (pub/sub) carry prev_table_seq.

const tableScoped = {
  table_id: tableIdSchema,
  table_seq: tableSeqSchema,
  prev_table_seq: prevTableSeqSchema.optional(),
};

const handScoped = {
  ...tableScoped,
  hand_id: handIdSchema,
  hand_seq: handSeqSchema,
};

// ---------------------------------------------------------------------------------------------
// Shared shapes

export const SeatStatus = {
  /** Seated, sat in and connected (or a bot). */
  ACTIVE: 'active',
  /** Sat in and connected, but the clock took this player’s last decision (a timeout); any action clears it. */
  AWAY: 'away',
  /** Not dealt in: sat out by choice, after three consecutive timeouts, with no chips, or leaving. */
  SITTING_OUT: 'sitting_out',
  /** Sat in with no connection to the table: still dealt in, and the clock acts at their turns. */
  DISCONNECTED: 'disconnected',
  EMPTY: 'empty',
} as const;
export type SeatStatus = (typeof SeatStatus)[keyof typeof SeatStatus];
export const SEAT_STATUSES = Object.values(SeatStatus) as [SeatStatus, ...SeatStatus[]];

export const HandPhase = {
  /** No hand: waiting for players or for the next start. */
  WAITING: 'waiting',
  /** seed_commit is out and the client-seed window is open; no card is dealt yet. */
  SEEDING: 'seeding',
  BETTING: 'betting',
  /** Draw games: players discard in turn. */
  DRAWING: 'drawing',
  /** Hands are being turned up and pots awarded. */
  SHOWDOWN: 'showdown',
  /** The hand is over; show_cards is possible until the next hand starts. */
  COMPLETE: 'complete',
} as const;
export type HandPhase = (typeof HandPhase)[keyof typeof HandPhase];
export const HAND_PHASES = Object.values(HandPhase) as [HandPhase, ...HandPhase[]];

export const stakesViewSchema = z
  .strictObject({
    small_blind: chipsSchema,
    big_blind: chipsSchema,
    ante: chipsSchema,
    big_blind_ante: chipsSchema,
    button_blind: chipsSchema,
    bring_in: chipsSchema,
    small_bet: chipsSchema,
    big_bet: chipsSchema,
  })
  .describe('Forced bets and fixed-limit bet sizes in force; 0 means the game has none.');
export type StakesView = z.infer<typeof stakesViewSchema>;

export const variantViewSchema = z
  .strictObject({
    game: z.string().describe('A single game: holdem, omaha, omaha5, omaha8, shortdeck, stud, stud8, razz, 27td.'),
    limit: z.enum(['nl', 'pl', 'fl']),
    stakes: stakesViewSchema,
  })
  .describe('The game a hand plays.');
export type VariantView = z.infer<typeof variantViewSchema>;

export const wagerRangeSchema = z
  .strictObject({
    min: chipsSchema,
    max: chipsSchema,
    choices: z
      .array(chipsSchema)
      .optional()
      .describe('When present, the only legal amounts (fixed limit with an open pair); otherwise any of min..max.'),
  })
  .describe('Legal "to" amounts: your total bet for the round after the action.');
export type WagerRangeView = z.infer<typeof wagerRangeSchema>;

export const validActionsSchema = z
  .strictObject({
    fold: z.boolean().describe('Folding is allowed only when facing a bet.'),
    check: z.boolean(),
    call: chipsSchema.nullable().describe('Chips a call adds (less than the bet when it puts you all-in), or null.'),
    bet: wagerRangeSchema.nullable().describe('Opening bet range, or null.'),
    raise: wagerRangeSchema
      .nullable()
      .describe('Raise range, or null (nothing to raise, the cap is reached, or the betting was not reopened).'),
    all_in: chipsSchema.nullable().describe('Your round total if you push everything in, when that is legal.'),
    bring_in: chipsSchema.nullable().describe('Stud: the bring-in you may post instead of completing, when due.'),
    complete: wagerRangeSchema.nullable().describe('Stud: the completion range while a bring-in is due.'),
    discard: z
      .strictObject({ max: z.number().int().nonnegative() })
      .nullable()
      .describe('Draw round: the most cards you may throw away (0 cards stands pat).'),
    current_bet: chipsSchema.describe('The round’s bet to match.'),
    player_bet: chipsSchema.describe('What you have put in this round.'),
    stack: chipsSchema,
    pot: chipsSchema.describe('Everything in the middle, this round’s bets included.'),
  })
  .describe('What the hero may do now: the only input the action buttons need.');
export type ValidActionsView = z.infer<typeof validActionsSchema>;

const hiddenOrCard = cardSchema.nullable();

export const seatViewSchema = z
  .strictObject({
    seat: seatNumberSchema,
    user_id: z.string().nullable().describe('null for an empty seat'),
    name: z.string().nullable().describe('null for an empty seat'),
    stack: chipsSchema.describe('Chips behind (not counting this round’s bet).'),
    status: z.enum(SEAT_STATUSES).describe('Seat and connection lifecycle (reference 003), not hand state.'),
    bot: z.boolean().optional().describe('true for a built-in bot seat; absent for humans and empty seats.'),
    in_hand: z
      .boolean()
      .describe('Dealt into the current hand (a seat that has since folded included). False between hands.'),
    folded: z
      .boolean()
      .optional()
      .describe('Present, as true or false, only when in_hand is true: the authoritative current-hand fold state.'),
    all_in: z.boolean().optional().describe('Present only when in_hand is true.'),
    bet: chipsSchema.describe('Chips put in during the current betting round.'),
    cards: z
      .array(hiddenOrCard)
      .optional()
      .describe(
        'Present only when in_hand is true: this seat’s cards as THIS recipient sees them, in dealing order. A ' +
          'card the recipient may not see is null: you see your own cards, up cards (Stud) and shown hands.',
      ),
    up: z
      .array(z.boolean())
      .optional()
      .describe('Beside `cards`: true for a card dealt face up (Stud), which every recipient sees.'),
    time_bank_ms: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('Time bank left, ms (occupied seats). It runs automatically after the action clock.'),
  })
  .describe('One seat. Every seat of the table is listed; an empty one has status "empty".');
export type SeatView = z.infer<typeof seatViewSchema>;

export const heroViewSchema = z
  .strictObject({
    seat: seatNumberSchema,
    cards: z.array(cardSchema).describe('Your hole cards in the current hand (empty when you are not in one).'),
    valid_actions: validActionsSchema
      .optional()
      .describe('Present only when you are the actor; send an action within them.'),
    turn_token: turnTokenSchema.optional().describe('Present only when you are the actor.'),
  })
  .describe(
    'The recipient’s own seat. Absent for spectators. valid_actions and turn_token appear only while the hero ' +
      'is the actor; a resync during the turn returns the same token and the same deadline.',
  );
export type HeroView = z.infer<typeof heroViewSchema>;

export const potViewSchema = z.strictObject({
  amount: chipsSchema,
  eligible: z.array(seatNumberSchema).describe('Seats that can win this pot.'),
});

export const rotationViewSchema = z
  .strictObject({
    format: z.string().describe('horse or 8game.'),
    next: variantViewSchema.describe('The game after the current one.'),
    hands_played: z.number().int().nonnegative().describe('Hands of the current game finished so far.'),
    hands_per_variant: z.number().int().positive(),
  })
  .describe('Mixed games only: where the rotation stands. It moves on only between hands.');

export const tableStateSchema = z
  .strictObject({
    type: z.literal('table_state'),
    ...tableScoped,
    hand_id: handIdSchema.optional().describe('Present while a hand is on (from seed_commit until the next hand).'),
    hand_seq: handSeqSchema.optional(),
    ts: epochMsSchema.describe('Server time, ms since the epoch. Not covered by state_hash.'),
    game: z.string().describe('The room’s game (a single game, or horse / 8game).'),
    variant: variantViewSchema.describe('The game of the current hand, or of the next one between hands.'),
    rotation: rotationViewSchema.optional(),
    phase: z.enum(HAND_PHASES),
    street: z.string().nullable().describe('preflop, flop, turn, river; third … seventh (Stud); draw rounds; null.'),
    button: seatNumberSchema.nullable(),
    small_blind: seatNumberSchema.nullable().describe('Seat that posted the small blind of the current hand.'),
    big_blind: seatNumberSchema.nullable().describe('Seat that posted the big (or button) blind.'),
    seats: z.array(seatViewSchema),
    board: z.array(cardSchema).describe('Community cards.'),
    pots: z
      .array(potViewSchema)
      .describe('Pots formed by closed betting rounds (this round’s bets are in seats[].bet).'),
    pot_total: chipsSchema.describe('Everything in the middle, this round’s bets included.'),
    current_bet: chipsSchema.describe('The bet to match in this round.'),
    actor: seatNumberSchema.nullable().describe('The seat to act, or null.'),
    deadline: epochMsSchema
      .nullable()
      .describe(
        'When the actor’s action clock ends (absolute ms). Their time bank then runs: the clock acts at ' +
          'deadline + time_bank_ms (check if free, else fold). Fixed for the turn: reconnects do not move it.',
      ),
    time_bank_ms: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe('The actor’s time bank at the start of this turn, ms (null without an actor).'),
    seed_commit: seedCommitSchema.optional().describe('The current hand’s commitment (present with hand_id).'),
    next_hand_at: epochMsSchema
      .optional()
      .describe('When the next hand will start if the table is still ready (between hands, with auto-start).'),
    closing: z
      .literal(true)
      .optional()
      .describe('The room is closing: the hand in progress finishes and counts, then the table closes.'),
    bots_blocked: z
      .enum(['bankroll_empty', 'room_limit', 'daily_limit'])
      .optional()
      .describe(
        'Bot fill wants a bot the house bankroll will not stake: it is empty, or the room’s or the day’s ' +
          'limit on what it puts at risk is reached. Present until a bot is seated.',
      ),
    hero: heroViewSchema.optional(),
    state_hash: stateHashSchema,
  })
  .describe(
    'The authoritative snapshot of a table for one recipient: it replaces whatever the client held. It is ' +
      'the last message of every accepted command’s batch, so a client that applies it is current.',
  );
export type TableState = z.infer<typeof tableStateSchema>;

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
  .describe('A decision, public to the table. The authoritative event for action history (reference 003).');

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
  .describe('FAIRNESS.md’s reveal record, as `felt verify` and @felt/client’s verifyReveal check it.');
export type RevealRecordView = z.infer<typeof revealRecordSchema>;

export const seedRevealSchema = z
  .strictObject({
    type: z.literal('seed_reveal'),
    ...handScoped,
    reveal: revealRecordSchema,
  })
  .describe(
    'After hand_result: the server seed, the client seeds that counted, the deck seed and every dealt card ' +
      'with its deck index, to verify the hand. Revealing the server seed reveals the whole deck (FAIRNESS.md, ' +
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
} as const;
export type HandVoidReason = (typeof HandVoidReason)[keyof typeof HandVoidReason];
export const HAND_VOID_REASONS = Object.values(HandVoidReason) as [HandVoidReason, ...HandVoidReason[]];

export const handVoidedSchema = z
  .strictObject({
    type: z.literal('hand_voided'),
    ...handScoped,
    reason: z.enum(HAND_VOID_REASONS),
    stacks: z
      .array(z.strictObject({ seat: seatNumberSchema, stack: chipsSchema }))
      .describe('Each seat dealt in (or, when the hand itself was lost, each seated player) and its stack now.'),
  })
  .describe(
    'The hand is void: nobody won or lost anything in it and every stack is back at its hand-start value. ' +
      'No hand_result or seed_reveal follows; the turn, if any, is over. The ledger records the hand as voided.',
  );

// ---------------------------------------------------------------------------------------------
// Replies and control

export const ackSchema = z
  .strictObject({
    type: z.literal('ack'),
    table_id: tableIdSchema,
    command_id: commandIdSchema,
    at_table_seq: tableSeqSchema.describe(
      'The table_seq after the command’s last message; its events are on the live stream at or below it.',
    ),
  })
  .describe(
    'A command with a command_id was accepted (or, sent again, had been). It is a reply, not a stream message: ' +
      'it carries no table_seq and does not move the receive watermark.',
  );

export const tableClosedSchema = z
  .strictObject({
    type: z.literal('table_closed'),
    ...tableScoped,
  })
  .describe('The room was closed; the table sends nothing more.');
export type TableClosed = z.infer<typeof tableClosedSchema>;

export const errorMessageSchema = z
  .strictObject({
    type: z.literal('error'),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    command_id: commandIdSchema.optional(),
    table_id: tableIdSchema.optional(),
    table_seq: tableSeqSchema.optional(),
    reason: z
      .string()
      .max(64)
      .optional()
      .describe(
        'illegal_action: the rule, e.g. cannot_check, raise_not_reopened, no_opponent_can_answer, bring_in_due.',
      ),
    min: chipsSchema.optional().describe('invalid_amount: the smallest legal amount.'),
    max: chipsSchema.optional().describe('invalid_amount: the largest legal amount.'),
  })
  .describe('A refused frame. Nothing was applied.');
export type ErrorMessage = z.infer<typeof errorMessageSchema>;

export const pongSchema = z
  .strictObject({
    type: z.literal('pong'),
    nonce: z.string().max(64).optional(),
    ts: z.number().int(),
  })
  .describe('Answer to ping.');
export type Pong = z.infer<typeof pongSchema>;

export const tableHeartbeatSchema = z
  .strictObject({
    type: z.literal('table_heartbeat'),
    table_id: tableIdSchema,
    table_seq: tableSeqSchema.describe(
      'The table_seq of the last message your stream carried. The heartbeat itself takes no number.',
    ),
  })
  .describe(
    'Sent on a quiet table (nothing published for FELT_TABLE_HEARTBEAT_MS, 10 s by default) to each ' +
      'recipient stream. Pub/sub delivers at most once, so a lost last message is otherwise exposed by ' +
      'nothing: when table_seq is above your receive watermark, send resync_request. Not replayed.',
  );
export type TableHeartbeat = z.infer<typeof tableHeartbeatSchema>;

/** Events a resync replays: everything table-scoped the stream carries except snapshots. */
export const tableEventSchema = z.discriminatedUnion('type', [
  seedCommitMessageSchema,
  handStartedSchema,
  holeCardsDealtSchema,
  streetRevealedSchema,
  yourTurnSchema,
  turnWarningSchema,
  playerActionSchema,
  showdownSchema,
  handResultSchema,
  cardsShownSchema,
  seedRevealSchema,
  handVoidedSchema,
  tableClosedSchema,
]);
export type TableEvent = z.infer<typeof tableEventSchema>;
export type TableEventType = TableEvent['type'];

export const Role = { PLAYER: 'player', SPECTATOR: 'spectator' } as const;
export type Role = (typeof Role)[keyof typeof Role];

export const resyncResponseSchema = z
  .strictObject({
    type: z.literal('resync_response'),
    table_id: tableIdSchema,
    table_seq: tableSeqSchema.describe('Equal to to_table_seq.'),
    role: z.enum([Role.PLAYER, Role.SPECTATOR]),
    from_table_seq: tableSeqSchema.describe('The from_table_seq asked for (0 when none was given).'),
    to_table_seq: tableSeqSchema.describe('Advance the receive watermark to this.'),
    complete: z
      .boolean()
      .describe('false when the bounded event buffer no longer holds every event after from_table_seq.'),
    replayed_events: z
      .array(tableEventSchema)
      .describe(
        'Events after from_table_seq that this recipient was allowed to see, in table_seq order, each as it ' +
          'was sent but without prev_table_seq. For history only: the snapshot already includes their effects.',
      ),
    snapshot: tableStateSchema.describe('Install as the final authoritative state.'),
  })
  .describe(
    'Answer to resync_request (reference 003 "Applying resync_response"). The table keeps the last 512 events ' +
      'in a bounded buffer; older ones are not replayed (complete: false) but the snapshot is always current.',
  );
export type ResyncResponse = z.infer<typeof resyncResponseSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  tableStateSchema,
  seedCommitMessageSchema,
  handStartedSchema,
  holeCardsDealtSchema,
  streetRevealedSchema,
  yourTurnSchema,
  turnWarningSchema,
  playerActionSchema,
  showdownSchema,
  handResultSchema,
  cardsShownSchema,
  seedRevealSchema,
  handVoidedSchema,
  resyncResponseSchema,
  ackSchema,
  tableClosedSchema,
  tableHeartbeatSchema,
  errorMessageSchema,
  pongSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];

export type SeedCommitMessage = z.infer<typeof seedCommitMessageSchema>;
export type HandStarted = z.infer<typeof handStartedSchema>;
export type HoleCardsDealt = z.infer<typeof holeCardsDealtSchema>;
export type StreetRevealed = z.infer<typeof streetRevealedSchema>;
export type YourTurn = z.infer<typeof yourTurnSchema>;
export type TurnWarning = z.infer<typeof turnWarningSchema>;
export type PlayerAction = z.infer<typeof playerActionSchema>;
export type Showdown = z.infer<typeof showdownSchema>;
export type HandResult = z.infer<typeof handResultSchema>;
export type CardsShown = z.infer<typeof cardsShownSchema>;
export type SeedReveal = z.infer<typeof seedRevealSchema>;
export type HandVoided = z.infer<typeof handVoidedSchema>;
export type Ack = z.infer<typeof ackSchema>;

/** A server message that belongs to one table's stream and so carries its watermark. */
export type TableMessage = TableState | TableEvent;

/** Messages that carry hand_id and hand_seq. */
export type HandMessage = Extract<TableEvent, { hand_id: string }>;
