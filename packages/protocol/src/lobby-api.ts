// The lobby's HTTP API: every request and response body, query and path parameter, the error shape
// and codes, the session cookie, and the routes that use them. The lobby validates requests with
// these schemas and builds its OpenAPI document (/openapi.json) from them; the SDK's LobbyClient, the
// web client and the test harness take their types from them; the lobby's contract test parses every
// answer with them.
import { z } from 'zod';
import { BETTING_LIMITS, GAME_TYPES, roomConfigInputSchema } from './room-config.js';
import { DEALING_MODES } from './blind-frames.js';
import { handActionSchema } from './hand-actions.js';
import { tournamentConfigInputSchema } from './tournament-config.js';

/** The session cookie the lobby sets at sign-up and login and the gateways read at upgrade. */
export const SESSION_COOKIE = 'felt_session';

/**
 * Stable error codes of the lobby's HTTP API: `{ "error": { "code", "message" } }`. Clients branch
 * on the code; the message is for people and never carries internals.
 */
export const LobbyErrorCode = {
  /** The body, query or path failed validation (or was not JSON). */
  INVALID_REQUEST: 'invalid_request',
  /** The room config failed RoomConfig's rules; `issues` lists each field. */
  INVALID_ROOM_CONFIG: 'invalid_room_config',
  UNAUTHENTICATED: 'unauthenticated',
  INVALID_CREDENTIALS: 'invalid_credentials',
  NAME_TAKEN: 'name_taken',
  NOT_HOST: 'not_host',
  NOT_FOUND: 'not_found',
  ROOM_NOT_FOUND: 'room_not_found',
  ROOM_CLOSED: 'room_closed',
  NO_ROOM_AVAILABLE: 'no_room_available',
  INVALID_SEAT: 'invalid_seat',
  SEAT_TAKEN: 'seat_taken',
  ALREADY_SEATED: 'already_seated',
  ROOM_FULL: 'room_full',
  NOT_SEATED: 'not_seated',
  BUY_IN_OUT_OF_RANGE: 'buy_in_out_of_range',
  INSUFFICIENT_FUNDS: 'insufficient_funds',
  /** The player's last seat at this room is still being cashed out (or its cash-out did not reconcile). */
  CASH_OUT_PENDING: 'cash_out_pending',
  /** The player asked to leave; the table lets them go at the end of the hand. */
  LEAVE_REQUESTED: 'leave_requested',
  HAND_NOT_FOUND: 'hand_not_found',
  /** The hand exists but the requested format cannot express it (e.g. PHH has no pot-limit Hold'em). */
  EXPORT_UNSUPPORTED: 'export_unsupported',
  /** An Idempotency-Key was reused for a different request. */
  IDEMPOTENCY_CONFLICT: 'idempotency_conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  /** Too many attempts (log-in, sign-up, joins by code) from this address or for this name; see Retry-After. */
  RATE_LIMITED: 'rate_limited',
  /** A waitlist was asked for while the room has a seat free for you: take it (a join) instead. */
  SEAT_AVAILABLE: 'seat_available',
  /** The room's waitlist holds WAITLIST_MAX_PER_ROOM players already. */
  WAITLIST_FULL: 'waitlist_full',
  /** You wait at WAITLIST_MAX_PER_USER rooms already; leave one of those waitlists first. */
  WAITLIST_LIMIT: 'waitlist_limit',
  /** The host already has as many open rooms as one may (FELT_MAX_OPEN_ROOMS_PER_USER). */
  ROOM_LIMIT_REACHED: 'room_limit_reached',
  /** A state-changing request from a page on another origin (CSRF). */
  ORIGIN_NOT_ALLOWED: 'origin_not_allowed',
  TOURNAMENT_NOT_FOUND: 'tournament_not_found',
  /**
   * The tournament takes no registration (or unregistration) now: it has started (and its late
   * registration, if any, has closed), ended or was cancelled. Also an add-on asked for while none
   * is on sale (the tournament offers none, its first break has not come, or the sale is over): the
   * same "not now" for the tournament's other purchase.
   */
  TOURNAMENT_CLOSED: 'tournament_closed',
  /** Every place of the tournament's field is taken. */
  TOURNAMENT_FULL: 'tournament_full',
  /** You hold no entry in this tournament that could be unregistered (or, for an add-on, none in play). */
  NOT_REGISTERED: 'not_registered',
  /** You unregistered from this tournament too many times to register again, or used up your re-entries. */
  TOURNAMENT_ENTRY_LIMIT: 'tournament_entry_limit',
  /** Password hashing is saturated; nothing was done. Retry after Retry-After seconds. */
  BUSY: 'busy',
  UNAVAILABLE: 'unavailable',
  INTERNAL: 'internal',
} as const;
export type LobbyErrorCode = (typeof LobbyErrorCode)[keyof typeof LobbyErrorCode];
export const LOBBY_ERROR_CODES = Object.values(LobbyErrorCode) as [LobbyErrorCode, ...LobbyErrorCode[]];

/** Chips as the API carries them: whole, non-negative, JSON-safe numbers. */
const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const VOIDED_REASON =
  'Present when the hand was voided (checkpoint_lost, room_closed, unreadable or engine_blind_failed): no result, every stack back at its start';

/**
 * How a stored hand was dealt. Optional so that a client reads answers of a lobby from before
 * engine-blind dealing: absent means `standard`.
 */
const handDealingSchema = z
  .enum(DEALING_MODES)
  .optional()
  .describe(
    'How the hand was dealt: standard (from the committed seed, with a reveal record) or engine_blind (the players ' +
      'dealt among themselves: no seed and no reveal record, and a hole card nobody showed is unknown to the ' +
      'server too); absent means standard',
  );

// ---- errors ---------------------------------------------------------------------------------

export const lobbyErrorSchema = z.object({
  error: z.object({
    code: z.enum(LOBBY_ERROR_CODES),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type LobbyErrorBody = z.infer<typeof lobbyErrorSchema>;

// ---- accounts -------------------------------------------------------------------------------

export const userNameSchema = z
  .string()
  .min(3)
  .max(24)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, _ and - only' });

export const credentialsSchema = z.strictObject({
  name: userNameSchema,
  password: z.string().min(8).max(128),
});
export type Credentials = z.infer<typeof credentialsSchema>;

export const lobbyUserSchema = z.object({ id: z.uuid(), name: z.string() });
export type LobbyUser = z.infer<typeof lobbyUserSchema>;

export const sessionSchema = z.object({
  user: lobbyUserSchema,
  wallet: chips.describe('Chips in the wallet'),
  expires_at: z.iso.datetime(),
});
export type LobbySession = z.infer<typeof sessionSchema>;

export const signedUpSchema = sessionSchema.extend({
  grant: chips.describe('Chips granted at sign-up: FELT_SIGNUP_GRANT, or 0'),
  grant_withheld: z
    .enum(['address_daily_cap'])
    .nullable()
    .describe(
      "Why there was no grant: address_daily_cap, the client address had today's sign-up grants already. " +
        'null when the grant was paid (or grants are off)',
    ),
});
export type LobbySignedUp = z.infer<typeof signedUpSchema>;

export const loggedOutEverywhereSchema = z.object({
  revoked: z.number().int().nonnegative().describe('Sessions revoked'),
});
export type LobbyLoggedOutEverywhere = z.infer<typeof loggedOutEverywhereSchema>;

export const lobbySeatSchema = z.object({
  session_id: z.uuid().describe('The room id; the table id clients attach to'),
  code: z.string(),
  seat: z.number().int().min(1),
  stack: chips,
});
export type LobbySeat = z.infer<typeof lobbySeatSchema>;

/** The languages the web client speaks; an account keeps its choice (`PATCH /api/me`). */
export const Locale = { EN: 'en', ZH_CN: 'zh-CN' } as const;
export type Locale = (typeof Locale)[keyof typeof Locale];
export const LOCALES = Object.values(Locale) as [Locale, ...Locale[]];
export const localeSchema = z.enum(LOCALES);

export const meSchema = z.object({
  user: lobbyUserSchema,
  wallet: chips,
  practice_wallet: chips.describe(
    'Practice chips, apart from the wallet: they play only at practice rooms and refill for free when you sit down',
  ),
  seats: z.array(lobbySeatSchema),
  locale: localeSchema
    .nullable()
    .describe("The account's language for the web client (en or zh-CN); null until chosen: the browser's decides"),
});
export type LobbyMe = z.infer<typeof meSchema>;

export const updateMeSchema = z.strictObject({
  locale: localeSchema.nullable().describe('The language to keep for this account; null forgets the choice'),
});
export type UpdateMeRequest = z.infer<typeof updateMeSchema>;

export const clientConfigSchema = z.object({ gateway_urls: z.array(z.string()) });
export type LobbyClientConfig = z.infer<typeof clientConfigSchema>;

// ---- rooms ----------------------------------------------------------------------------------

/** A room configuration as the API takes it and shows it: RoomConfig's input, defaults left out. */
export const roomConfigBodySchema = roomConfigInputSchema.describe(
  'Room configuration (see @felt/protocol RoomConfig). Omitted fields take their defaults.',
);

export const seatRequestSchema = z.strictObject({
  seat: z.number().int().min(1).max(10).optional().describe('Seat number; omitted: the first free seat'),
  buy_in: chips.describe("Chips moved from the wallet to the table, within the room's range"),
});
export type SeatRequest = z.infer<typeof seatRequestSchema>;

export const createRoomSchema = z.strictObject({
  config: roomConfigBodySchema.optional(),
  sit: seatRequestSchema.describe('Seat the creator (the host) with this buy-in').optional(),
});
export type CreateRoomRequest = z.input<typeof createRoomSchema>;

export const joinByCodeSchema = z.strictObject({
  code: z.string().regex(/^[0-9]{6}$/, { message: 'six digits' }),
  seat: z.number().int().min(1).max(10).optional(),
  buy_in: chips.min(1).describe("Chips moved from the wallet to the table, within the room's range"),
});
export type JoinByCodeRequest = z.infer<typeof joinByCodeSchema>;

const stakesFilter = z
  .string()
  .regex(/^[0-9]{1,12}\/[0-9]{1,12}$/, { message: 'like 1/2' })
  .describe('Stakes as the room list shows them, e.g. "1/2" (Stud family: small/big bet)');

export const quickJoinSchema = z.strictObject({
  game: z.enum(GAME_TYPES).optional(),
  limit: z.enum(BETTING_LIMITS).optional(),
  stakes: stakesFilter.optional(),
  buy_in: chips.optional().describe("Omitted: the room's maximum, or as much of it as the wallet holds"),
  practice: z
    .boolean()
    .optional()
    .describe(
      'true: practice-chip rooms only; omitted or false: real-chip rooms only, so no one lands on play money by chance',
    ),
});
export type QuickJoinRequest = z.infer<typeof quickJoinSchema>;

export const joinedSchema = lobbySeatSchema.extend({
  wallet: chips,
  replayed: z.boolean().describe('True when an Idempotency-Key repeated an earlier join'),
});
export type LobbyJoined = z.infer<typeof joinedSchema>;

export const roomSummarySchema = z.object({
  session_id: z.uuid(),
  code: z.string(),
  status: z.enum(['open', 'closing', 'closed']),
  game: z.enum(GAME_TYPES),
  limit: z.enum(BETTING_LIMITS),
  stakes: z.string(),
  seats: z.number().int(),
  players: z.number().int(),
  buy_in: z.object({ min: chips, max: chips }),
  listed: z.boolean(),
  practice: z
    .boolean()
    .describe(
      'Plays for practice chips (config.practiceChips): free chips from the practice wallet, never the real one',
    ),
  host_id: z.uuid(),
  created_at: z.iso.datetime(),
  waitlist: z.number().int().nonnegative().describe('Players waiting for a seat (POST /api/rooms/{id}/waitlist)'),
});
export type LobbyRoomSummary = z.infer<typeof roomSummarySchema>;

export const roomListSchema = z.object({ rooms: z.array(roomSummarySchema) });
export type LobbyRoomList = z.infer<typeof roomListSchema>;

export const roomDetailSchema = roomSummarySchema.extend({
  config: roomConfigBodySchema,
  members: z.array(z.object({ user_id: z.uuid(), name: z.string(), seat: z.number().int(), stack: chips })),
});
export type LobbyRoomDetail = z.infer<typeof roomDetailSchema>;

export const createdRoomSchema = z.object({
  session_id: z.uuid(),
  code: z.string(),
  room: roomDetailSchema,
  seat: joinedSchema.nullable(),
});
export type LobbyCreatedRoom = z.infer<typeof createdRoomSchema>;

export const leftSchema = z.object({
  session_id: z.uuid(),
  status: z
    .enum(['left', 'leaving'])
    .describe(
      'left: the stack is back in the wallet. leaving: the table lets you go at the end of the hand and ' +
        'the stack is paid once every earlier hand is persisted',
    ),
  refunded: chips,
  wallet: chips,
});
export type LobbyLeft = z.infer<typeof leftSchema>;

export const closedSchema = z.object({
  session_id: z.uuid(),
  status: z
    .enum(['closed', 'closing'])
    .describe('closing: the tables are refunding the seats; the room is never listed again'),
  refunds: z.array(z.object({ user_id: z.uuid(), amount: chips })),
});
export type LobbyClosed = z.infer<typeof closedSchema>;

export const roomChatRequestSchema = z
  .strictObject({
    enabled: z.boolean().optional().describe('Chat at the table: on (true) or off for everyone (false)'),
    spectators: z.boolean().optional().describe('Whether spectators may chat too, while chat is on'),
  })
  .refine((b) => b.enabled !== undefined || b.spectators !== undefined, {
    message: 'give enabled, spectators or both',
  })
  .describe(
    "Changes the room's `chat` setting; a field left out keeps its value. The table applies it at once, mid-hand too.",
  );
export type RoomChatRequest = z.infer<typeof roomChatRequestSchema>;

export const topUpRequestSchema = z.strictObject({
  amount: chips
    .min(1)
    .describe("Chips moved from the wallet to the table; the stack after it stays in the room's buy-in range"),
});
export type TopUpRequest = z.infer<typeof topUpRequestSchema>;

export const topUpSchema = z.object({
  session_id: z.uuid(),
  top_up_id: z.uuid(),
  amount: chips,
  status: z
    .enum(['pending', 'applied', 'cashed_out'])
    .describe('pending: the table adds the chips at its next hand boundary'),
  escrow: chips.describe('Your chips at this table: the stack plus top-ups waiting to be added'),
  wallet: chips,
  replayed: z.boolean(),
});
export type LobbyTopUp = z.infer<typeof topUpSchema>;

export const roomIdParamSchema = z.object({
  id: z.uuid().describe('session_id of the room'),
});

export const listQuerySchema = z.object({
  game: z.enum(GAME_TYPES).optional(),
  limit: z.enum(BETTING_LIMITS).optional().describe('Betting limit'),
  stakes: stakesFilter.optional(),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type RoomListQuery = z.input<typeof listQuerySchema>;

export const idempotencyHeaderSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\x21-\x7e]+$/, { message: 'printable ASCII without spaces' })
    .optional()
    .describe('Repeat-safe joins'),
});

// ---- waitlists ------------------------------------------------------------------------------

/** How long a free seat stays offered to the first in line before it goes to the next. */
export const WAITLIST_OFFER_MS = 30_000;
/** The most players one room's waitlist holds. */
export const WAITLIST_MAX_PER_ROOM = 50;
/** The most rooms one player may wait at together. */
export const WAITLIST_MAX_PER_USER = 8;

export const waitlistEntrySchema = z.object({
  session_id: z.uuid(),
  code: z.string(),
  position: z.number().int().min(1).describe('Your place in line: 1 is next'),
  length: z.number().int().min(1).describe('Players waiting at this room, you included'),
  offer_expires_at: z.iso
    .datetime()
    .nullable()
    .describe(
      'A seat is held for you until then: take it with POST /api/rooms/join and this code. ' +
        'Not taken in time, the offer lapses, you leave the line and the seat goes to the next. null while you wait',
    ),
});
export type LobbyWaitlistEntry = z.infer<typeof waitlistEntrySchema>;

export const waitlistsSchema = z.object({
  waitlists: z.array(waitlistEntrySchema).describe('The rooms you wait at, in the order you joined their lines'),
});
export type LobbyWaitlists = z.infer<typeof waitlistsSchema>;

// ---- hand history ---------------------------------------------------------------------------

export const handIdParamSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, _ or -' })
    .describe('The hand id (a lowercase uuid)'),
});

export const historyQuerySchema = z.object({
  cursor: z.string().max(512).optional().describe('The `next` of the previous page'),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type HistoryQuery = z.input<typeof historyQuerySchema>;

const cardOrHidden = z
  .string()
  .nullable()
  .describe('A card such as "As"; null when you did not see it (in an engine-blind hand, any card nobody showed)');

export const handSummarySchema = z.object({
  hand_id: z.string(),
  session_id: z.uuid(),
  hand_no: z.number().int().nullable(),
  game: z.string(),
  limit: z.string(),
  blinds: z.unknown(),
  started_at: z.iso.datetime(),
  ended_at: z.iso.datetime(),
  seat: z.number().int(),
  cards: z
    .array(z.string())
    .describe('Your hole cards (of an engine-blind hand, only if you showed them: the server never knew them)'),
  board: z.array(z.string()),
  starting_stack: chips,
  final_stack: chips,
  net: z.number().int(),
  won: chips,
  folded: z.boolean(),
  pot_total: chips,
  rake: chips,
  voided_reason: z.string().optional().describe(VOIDED_REASON),
  dealing: handDealingSchema,
});
export type HandSummary = z.infer<typeof handSummarySchema>;

export const historyPageSchema = z.object({ hands: z.array(handSummarySchema), next: z.string().nullable() });
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const handDetailPlayerSchema = z.object({
  seat: z.number().int(),
  user_id: z.uuid(),
  name: z.string(),
  starting_stack: chips,
  contributed: chips,
  returned: chips,
  won: chips,
  rake_paid: chips,
  final_stack: chips,
  net: z.number().int(),
  folded: z.boolean(),
  cards: z.array(cardOrHidden),
  shown: z.boolean(),
});
export type HandDetailPlayer = z.infer<typeof handDetailPlayerSchema>;

export const handDetailSchema = z.object({
  hand_id: z.string(),
  session_id: z.uuid(),
  hand_no: z.number().int().nullable(),
  game: z.string(),
  limit: z.string(),
  blinds: z.unknown(),
  button: z.number().int().nullable(),
  started_at: z.iso.datetime(),
  ended_at: z.iso.datetime(),
  viewer_seat: z.number().int(),
  board: z.array(z.string()),
  pot_total: chips,
  rake: chips,
  voided_reason: z.string().optional().describe(VOIDED_REASON),
  dealing: handDealingSchema,
  players: z.array(handDetailPlayerSchema),
  actions: z.array(handActionSchema).describe("The operation log in order; other players' unseen cards are null"),
  pots: z.array(
    z.object({
      index: z.number().int(),
      amount: chips,
      rake: chips,
      eligible: z.array(z.number().int()),
      contested: z.boolean(),
      winners: z.unknown(),
    }),
  ),
  fairness: z
    .object({
      seed_commit: z.string().nullable(),
      server_seed: z.string().nullable(),
      client_seeds: z.unknown(),
      deck_seed: z.string().nullable(),
      version: z.string().nullable(),
      deck: z.string().nullable(),
    })
    .describe('The reveal material (docs/fairness.md); every field null for a voided or an engine-blind hand'),
});
export type HandDetail = z.infer<typeof handDetailSchema>;

export const revealResponseSchema = z.object({
  reveal: z
    .record(z.string(), z.unknown())
    .describe(
      'The reveal record (docs/fairness.md): seeds, and every dealt deck index with its card, or card null where you did not see it',
    ),
  withheld: z.array(z.number().int()).describe('Deck indices whose cards are withheld'),
});
export type RevealResponse = z.infer<typeof revealResponseSchema>;

/** Open Hand History 1.4 (`{"ohh": …}`), written for the viewer. */
export const ohhResponseSchema = z.record(z.string(), z.unknown());

/** PHH (TOML) text, written for the viewer. */
export const phhResponseSchema = z.string();

// ---- routes ---------------------------------------------------------------------------------

/** One route of the API: what it takes, and its answer for each success status (null: no body). */
export interface LobbyRouteContract {
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly headers?: z.ZodObject;
  readonly body?: z.ZodType;
  readonly success: Readonly<Record<number, z.ZodType | null>>;
}

// The wallet's history (GET /api/wallet/history): every movement of the caller's wallet.

/**
 * Every kind of ledger transaction (prisma/schema.prisma, LedgerTxKind). A wallet sees grant,
 * buy_in, top_up, cash_out and refund, tournament_entry, tournament_refund, tournament_prize,
 * tournament_add_on and tournament_add_on_refund (and a bot's wallet bot_stake and bot_return); a
 * real wallet never sees practice_refill (practice chips have their own wallet); the rest move chips
 * between escrows, the rake and the house, and are listed so that a new posting to a wallet never
 * fails the response schema.
 */
export const WALLET_ENTRY_KINDS = [
  'grant',
  'buy_in',
  'top_up',
  'cash_out',
  'refund',
  'hand_result',
  'rake',
  'bankroll_funding',
  'bot_stake',
  'bot_return',
  'tournament_entry',
  'tournament_refund',
  'tournament_prize',
  'tournament_add_on',
  'tournament_add_on_refund',
  'practice_refill',
] as const;
export type WalletEntryKind = (typeof WALLET_ENTRY_KINDS)[number];

const signedChips = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

export const WALLET_HISTORY_MAX_PAGE = 100;

export const walletHistoryQuerySchema = z.object({
  cursor: z.string().max(512).optional().describe('The `next` of the previous page'),
  page_size: z.coerce.number().int().min(1).max(WALLET_HISTORY_MAX_PAGE).default(20),
});
export type WalletHistoryQuery = z.input<typeof walletHistoryQuerySchema>;

export const walletEntrySchema = z.object({
  id: z.uuid().describe('The ledger entry'),
  at: z.iso.datetime().describe('When the movement was posted'),
  kind: z.enum(WALLET_ENTRY_KINDS),
  amount: signedChips.describe('Chips into the wallet (positive) or out of it (negative)'),
  balance: chips.describe('The wallet balance just after this movement'),
  room: z
    .object({ session_id: z.uuid(), code: z.string() })
    .nullable()
    .describe('The room the chips went to or came from; null for a grant'),
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

export const walletHistoryPageSchema = z.object({
  entries: z.array(walletEntrySchema).describe('Newest first'),
  next: z.string().nullable().describe('The cursor of the next (older) page; null on the last page'),
});
export type WalletHistoryPage = z.infer<typeof walletHistoryPageSchema>;

// ---- tournaments (docs/dev/money-flows.md, "Tournaments") --------------------------------------

export const tournamentSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  format: z.enum(['sit_and_go', 'scheduled']),
  status: z.enum(['registering', 'running', 'finished', 'cancelled']),
  game: z.enum(GAME_TYPES),
  limit: z.enum(BETTING_LIMITS),
  seats: z.number().int().describe('Seats per table'),
  buy_in: chips.describe('Chips each entry pays into the prize pool'),
  fee: chips.describe('Chips each entry pays the house'),
  starting_stack: chips.describe('Tournament chips each entry starts with (not wallet chips)'),
  entrants: z.number().int().nonnegative().describe('Entries registered or still playing'),
  min_entrants: z.number().int(),
  max_entrants: z.number().int(),
  starts_at: z.iso.datetime().nullable().describe('Scheduled tournaments; null for a sit-and-go (starts when full)'),
  prize_pool: chips.describe('Buy-ins (and add-ons) paid in less the prizes paid out so far'),
  created_at: z.iso.datetime(),
  late_registration_open: z
    .boolean()
    .describe(
      'True while the tournament runs and still takes late registrations (its config has ' +
        'lateRegistrationLevels above 0 and its director has not closed registration yet): register joins it ' +
        'as it plays. False otherwise, registering tournaments included.',
    ),
  re_entry_open: z
    .boolean()
    .describe(
      'True while the tournament runs and a player whose entry is out may still buy in again (its config ' +
        'has reEntry, late registration is open and its director has not closed re-entry at the end of ' +
        'reEntry.untilLevel). False otherwise.',
    ),
});
export type LobbyTournamentSummary = z.infer<typeof tournamentSummarySchema>;

export const tournamentListSchema = z.object({ tournaments: z.array(tournamentSummarySchema) });
export type LobbyTournamentList = z.infer<typeof tournamentListSchema>;

export const tournamentListQuerySchema = z.object({
  status: z
    .enum(['registering', 'running', 'finished'])
    .optional()
    .describe('Default: those registering and running. Cancelled tournaments are never listed'),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type TournamentListQuery = z.input<typeof tournamentListQuerySchema>;

export const tournamentIdParamSchema = z.object({ id: z.uuid().describe('The tournament') });

export const tournamentDetailSchema = tournamentSummarySchema.extend({
  config: tournamentConfigInputSchema.describe('The resolved TournamentConfig (it parses back to itself)'),
  players: z.array(
    z.object({
      user_id: z.uuid(),
      name: z.string(),
      entry_no: z.number().int().describe('1 for a first entry, 2 and on for re-entries'),
      status: z
        .enum(['registered', 'playing', 'busted', 'finished'])
        .describe(
          'One row per entry (a re-entry is another row). busted: out while late registration is open; ' +
            'its place and prize are given when registration closes',
        ),
      place: z.number().int().nullable(),
      prize: chips,
      table_id: z
        .uuid()
        .nullable()
        .describe('The table the player sits at now (join it with join_table); null before the start and once out'),
    }),
  ),
  payouts: z
    .array(z.object({ place: z.number().int(), amount: chips }))
    .describe(
      "What each paid place wins: the standard chart for the field as it stands, from the pool's buy-ins and " +
        'add-ons (those not refunded)',
    ),
  registered: z.boolean().describe('Whether you hold an entry registered or playing'),
  can_re_enter: z
    .boolean()
    .describe(
      'Whether you may buy in again now (POST register makes the re-entry): your last entry is out, ' +
        're_entry_open, and you have re-entries left (the config reEntry.max)',
    ),
  your_table_id: z
    .uuid()
    .nullable()
    .describe('Your table while you play (the SDK joins it, then follows table_moved); null otherwise'),
  add_on_open: z
    .boolean()
    .describe(
      'True while the add-on is on sale (POST add-on): its config has addOn, it runs, its director opened the ' +
        'sale at the first break, add_on_until has not come and the director has not closed the add-ons. ' +
        'False otherwise.',
    ),
  add_on_until: z.iso
    .datetime()
    .nullable()
    .describe(
      "When the add-on's sale ends (the first break's end), once its director opened it; null before (and for " +
        'a tournament without an add-on)',
    ),
  can_add_on: z
    .boolean()
    .describe(
      'Whether you may buy the add-on now: add_on_open, and you hold an entry playing (seated) that has not ' +
        'bought it',
    ),
});
export type LobbyTournamentDetail = z.infer<typeof tournamentDetailSchema>;

export const tournamentEntrySchema = z.object({
  tournament_id: z.uuid(),
  entry_no: z.number().int().describe('1 for a first entry, 2 and on for re-entries'),
  status: z.enum(['registered', 'playing']),
  wallet: chips.describe('Your wallet after the buy-in and fee'),
  replayed: z.boolean().describe('True when you were registered already: nothing was charged'),
});
export type LobbyTournamentEntry = z.infer<typeof tournamentEntrySchema>;

export const tournamentUnregisteredSchema = z.object({
  tournament_id: z.uuid(),
  wallet: chips.describe('Your wallet after the refund of buy-in and fee'),
});
export type LobbyTournamentUnregistered = z.infer<typeof tournamentUnregisteredSchema>;

export const tournamentAddOnSchema = z.object({
  tournament_id: z.uuid(),
  entry_no: z.number().int().describe('The entry that bought it: 1 for a first entry, 2 and on for re-entries'),
  chips: chips.describe(
    'Tournament chips the add-on gives (the config addOn.chips): its director adds them at your table',
  ),
  cost: chips.describe('Wallet chips it cost, paid into the prize pool (the config addOn.cost)'),
  wallet: chips.describe('Your wallet after the cost'),
  replayed: z.boolean().describe('True when this entry had bought it already: nothing was charged'),
});
export type LobbyTournamentAddOn = z.infer<typeof tournamentAddOnSchema>;

/**
 * Every route of the lobby's HTTP API, keyed `METHOD /path` as OpenAPI writes the path. The lobby's
 * contract test checks that the served OpenAPI document has exactly these routes and that every
 * success answer parses with the schema listed here.
 */
export const LOBBY_ROUTES = {
  'GET /api/config': { success: { 200: clientConfigSchema } },
  'POST /api/auth/signup': { body: credentialsSchema, success: { 201: signedUpSchema } },
  'POST /api/auth/login': { body: credentialsSchema, success: { 200: sessionSchema } },
  'POST /api/auth/logout': { success: { 204: null } },
  'POST /api/auth/logout-all': { success: { 200: loggedOutEverywhereSchema } },
  'GET /api/me': { success: { 200: meSchema } },
  'PATCH /api/me': { body: updateMeSchema, success: { 200: meSchema } },
  'POST /api/rooms': { headers: idempotencyHeaderSchema, body: createRoomSchema, success: { 201: createdRoomSchema } },
  'GET /api/rooms': { query: listQuerySchema, success: { 200: roomListSchema } },
  'POST /api/rooms/join': { headers: idempotencyHeaderSchema, body: joinByCodeSchema, success: { 200: joinedSchema } },
  'POST /api/rooms/quick-join': { body: quickJoinSchema, success: { 200: joinedSchema } },
  'GET /api/rooms/{id}': { params: roomIdParamSchema, success: { 200: roomDetailSchema } },
  'POST /api/rooms/{id}/leave': { params: roomIdParamSchema, success: { 200: leftSchema, 202: leftSchema } },
  'POST /api/rooms/{id}/top-up': {
    params: roomIdParamSchema,
    headers: idempotencyHeaderSchema,
    body: topUpRequestSchema,
    success: { 200: topUpSchema },
  },
  'DELETE /api/rooms/{id}': { params: roomIdParamSchema, success: { 200: closedSchema, 202: closedSchema } },
  'PATCH /api/rooms/{id}/chat': {
    params: roomIdParamSchema,
    body: roomChatRequestSchema,
    success: { 200: roomDetailSchema },
  },
  'POST /api/rooms/{id}/waitlist': { params: roomIdParamSchema, success: { 200: waitlistEntrySchema } },
  'DELETE /api/rooms/{id}/waitlist': { params: roomIdParamSchema, success: { 204: null } },
  'GET /api/waitlists': { success: { 200: waitlistsSchema } },
  'GET /api/wallet/history': { query: walletHistoryQuerySchema, success: { 200: walletHistoryPageSchema } },
  'GET /api/hands': { query: historyQuerySchema, success: { 200: historyPageSchema } },
  'GET /api/hands/{id}': { params: handIdParamSchema, success: { 200: handDetailSchema } },
  'GET /api/hands/{id}/reveal': { params: handIdParamSchema, success: { 200: revealResponseSchema } },
  'GET /api/hands/{id}/ohh': { params: handIdParamSchema, success: { 200: ohhResponseSchema } },
  'GET /api/hands/{id}/phh': { params: handIdParamSchema, success: { 200: phhResponseSchema } },
  'GET /api/tournaments': { query: tournamentListQuerySchema, success: { 200: tournamentListSchema } },
  'GET /api/tournaments/{id}': { params: tournamentIdParamSchema, success: { 200: tournamentDetailSchema } },
  'POST /api/tournaments/{id}/register': { params: tournamentIdParamSchema, success: { 200: tournamentEntrySchema } },
  'DELETE /api/tournaments/{id}/register': {
    params: tournamentIdParamSchema,
    success: { 200: tournamentUnregisteredSchema },
  },
  'POST /api/tournaments/{id}/add-on': { params: tournamentIdParamSchema, success: { 200: tournamentAddOnSchema } },
} as const satisfies Readonly<Record<string, LobbyRouteContract>>;
export type LobbyRouteKey = keyof typeof LOBBY_ROUTES;
