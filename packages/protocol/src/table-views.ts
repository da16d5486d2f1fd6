import { z } from 'zod';
import { dealingViewSchema } from './blind-frames.js';
import {
  cardSchema,
  chipsSchema,
  epochMsSchema,
  handIdSchema,
  handSeqSchema,
  prevTableSeqSchema,
  seatNumberSchema,
  seedCommitSchema,
  stateHashSchema,
  tableIdSchema,
  tableSeqSchema,
  turnTokenSchema,
} from './wire.js';

// Server -> client: the shapes every message shares and the table snapshot. Every table-scoped message carries table_id and table_seq; hand-scoped ones also
// carry hand_id and hand_seq. Messages of the live stream (pub/sub) carry prev_table_seq.

export const tableScoped = {
  table_id: tableIdSchema,
  table_seq: tableSeqSchema,
  prev_table_seq: prevTableSeqSchema.optional(),
};

export const handScoped = {
  ...tableScoped,
  hand_id: handIdSchema,
  hand_seq: handSeqSchema,
};

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** How a recipient sees a table: as a member (player), or watching (spectator). */
export const Role = { PLAYER: 'player', SPECTATOR: 'spectator' } as const;
export type Role = (typeof Role)[keyof typeof Role];

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
  /** Engine-blind dealing: the players are opening the next board cards together. */
  DEALING: 'dealing',
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
    show: z
      .strictObject({ cards: z.number().int().positive() })
      .optional()
      .describe(
        'Engine-blind showdown only: your turn to show (send `blind_shares` with your own shares of your ' +
          'hole positions: @felt/blind `BlindParticipant.show`) or muck (`action` fold). The clock mucks.',
      ),
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
    status: z.enum(SEAT_STATUSES).describe('Seat and connection lifecycle, not hand state.'),
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

export const tournamentLevelViewSchema = z
  .strictObject({
    number: z.number().int().min(1).describe('1 is the first level.'),
    small_blind: chipsSchema,
    big_blind: chipsSchema,
    ante: chipsSchema.describe('Posted by every player dealt in (0: none).'),
    big_blind_ante: chipsSchema.describe('One ante for the table, posted by the big blind (0: none).'),
  })
  .describe('One level of a tournament’s blind structure, in tournament chips.');

export const tournamentViewSchema = z
  .strictObject({
    tournament_id: tableIdSchema.describe('The tournament (GET /api/tournaments/{id}).'),
    name: z.string(),
    level: tournamentLevelViewSchema.describe('The level being played.'),
    next_level: tournamentLevelViewSchema.nullable(),
    level_ends_at: epochMsSchema
      .nullable()
      .describe('When the level ends (absolute ms); null for levels measured in hands.'),
    break_ends_at: epochMsSchema
      .nullable()
      .describe('During a break, when it ends (absolute ms): no hand is dealt until then. Null while playing.'),
    players_left: z.number().int().nonnegative(),
    entrants: z.number().int().nonnegative(),
    average_stack: chipsSchema,
    stacks: z
      .array(chipsSchema)
      .describe('Every remaining player’s chips, largest first: a player’s place is the rank of their stack.'),
    prizes: z.array(chipsSchema).describe('What each paid place wins, first place first.'),
    hand_for_hand: z
      .boolean()
      .describe('On the money bubble every table waits for the others to finish their hand before dealing.'),
    placed: z
      .array(
        z.strictObject({
          user_id: tableIdSchema,
          name: z.string(),
          place: z.number().int().min(1),
          prize: chipsSchema,
          entry_no: z
            .number()
            .int()
            .min(1)
            .describe('Which of the player’s entries this was: 1, then 2 and on for re-entries'),
        }),
      )
      .describe(
        'The latest entries out (and the winner), most recent first, with their place and prize. A player ' +
          'who re-entered may appear once per entry: their result is the row of their last entry.',
      ),
  })
  .describe(
    'A tournament as its director last told this table: the level, the field and the payouts. Updated ' +
      'between hands, so the stacks of other tables may be one hand old.',
  );
export type TournamentView = z.infer<typeof tournamentViewSchema>;

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
    tournament: tournamentViewSchema.optional().describe('Tables of a tournament only.'),
    dealing: dealingViewSchema.optional(),
    hero: heroViewSchema.optional(),
    state_hash: stateHashSchema,
  })
  .describe(
    'The authoritative snapshot of a table for one recipient: it replaces whatever the client held. It is ' +
      'the last message of every accepted command’s batch, so a client that applies it is current.',
  );
export type TableState = z.infer<typeof tableStateSchema>;
