import { z } from '@hono/zod-openapi';
import { BETTING_LIMITS, GAME_TYPES, roomConfigInputSchema } from '@felt/protocol';
import { API_ERROR_CODES } from './errors.js';

/** Chips as the API carries them: whole, non-negative, JSON-safe numbers. */
const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).openapi({ example: 'seat_taken' }),
      message: z.string().openapi({ example: 'seat 3 is taken' }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi('Error');

export const nameSchema = z
  .string()
  .min(3)
  .max(24)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, _ and - only' })
  .openapi({ example: 'alice' });

export const credentialsSchema = z
  .strictObject({
    name: nameSchema,
    password: z.string().min(8).max(128).openapi({ example: 'correct horse battery' }),
  })
  .openapi('Credentials');

export const userSchema = z.object({ id: z.uuid(), name: z.string() }).openapi('User');

export const sessionResponseSchema = z
  .object({
    user: userSchema,
    wallet: chips.openapi({ description: 'Chips in the wallet' }),
    expires_at: z.iso.datetime(),
  })
  .openapi('Session');

export const signedUpSchema = sessionResponseSchema
  .extend({
    grant: chips.openapi({ description: 'Chips granted at sign-up: FELT_SIGNUP_GRANT, or 0' }),
    grant_withheld: z
      .enum(['address_daily_cap'])
      .nullable()
      .openapi({
        description:
          "Why there was no grant: address_daily_cap, the client address had today's sign-up grants already. " +
          'null when the grant was paid (or grants are off)',
      }),
  })
  .openapi('SignedUp');

export const loggedOutEverywhereSchema = z
  .object({ revoked: z.number().int().nonnegative().openapi({ description: 'Sessions revoked' }) })
  .openapi('LoggedOutEverywhere');

export const seatSchema = z
  .object({
    session_id: z.uuid().openapi({ description: 'The room id; the table id clients attach to' }),
    code: z.string().openapi({ example: '042817' }),
    seat: z.number().int().min(1),
    stack: chips,
  })
  .openapi('Seat');

export const meSchema = z
  .object({
    user: userSchema,
    wallet: chips,
    seats: z.array(seatSchema),
  })
  .openapi('Me');

export const configResponseSchema = z
  .object({
    gateway_urls: z.array(z.string()).openapi({ example: ['ws://127.0.0.1:8081/ws'] }),
  })
  .openapi('ClientConfig');

// A fresh object over the protocol schema's fields: zod 4 copies methods onto schemas when they
// are built, so a schema built before @hono/zod-openapi loaded has no .openapi() of its own.
export const roomConfigSchemaDoc = z.strictObject(roomConfigInputSchema.shape).openapi('RoomConfig', {
  description: 'Room configuration (see @felt/protocol RoomConfig). Omitted fields take their defaults.',
});

export const seatRequestSchema = z
  .strictObject({
    seat: z
      .number()
      .int()
      .min(1)
      .max(10)
      .optional()
      .openapi({ description: 'Seat number; omitted: the first free seat' }),
    buy_in: chips.openapi({ description: "Chips moved from the wallet to the table, within the room's range" }),
  })
  .openapi('SeatRequest');

export const createRoomSchema = z
  .strictObject({
    config: roomConfigSchemaDoc.optional(),
    sit: seatRequestSchema.optional().openapi({ description: 'Seat the creator (the host) with this buy-in' }),
  })
  .openapi('CreateRoom');

export const joinByCodeSchema = z
  .strictObject({
    code: z
      .string()
      .regex(/^[0-9]{6}$/, { message: 'six digits' })
      .openapi({ example: '042817' }),
    seat: z.number().int().min(1).max(10).optional(),
    buy_in: chips.min(1).openapi({ description: "Chips moved from the wallet to the table, within the room's range" }),
  })
  .openapi('JoinByCode');

const stakesFilter = z
  .string()
  .regex(/^[0-9]{1,12}\/[0-9]{1,12}$/, { message: 'like 1/2' })
  .openapi({ description: 'Stakes as the room list shows them, e.g. "1/2" (Stud family: small/big bet)' });

export const quickJoinSchema = z
  .strictObject({
    game: z.enum(GAME_TYPES).optional(),
    limit: z.enum(BETTING_LIMITS).optional(),
    stakes: stakesFilter.optional(),
    buy_in: chips.optional().openapi({
      description: "Omitted: the room's maximum, or as much of it as the wallet holds",
    }),
  })
  .openapi('QuickJoin');

export const joinedSchema = seatSchema
  .extend({
    wallet: chips,
    replayed: z.boolean().openapi({ description: 'True when an Idempotency-Key repeated an earlier join' }),
  })
  .openapi('Joined');

export const roomSummarySchema = z
  .object({
    session_id: z.uuid(),
    code: z.string(),
    status: z.enum(['open', 'closing', 'closed']),
    game: z.enum(GAME_TYPES),
    limit: z.enum(BETTING_LIMITS),
    stakes: z.string().openapi({ example: '1/2' }),
    seats: z.number().int(),
    players: z.number().int(),
    buy_in: z.object({ min: chips, max: chips }),
    listed: z.boolean(),
    host_id: z.uuid(),
    created_at: z.iso.datetime(),
  })
  .openapi('RoomSummary');

export const roomListSchema = z.object({ rooms: z.array(roomSummarySchema) }).openapi('RoomList');

export const roomDetailSchema = roomSummarySchema
  .extend({
    config: roomConfigSchemaDoc,
    members: z.array(z.object({ user_id: z.uuid(), name: z.string(), seat: z.number().int(), stack: chips })),
  })
  .openapi('RoomDetail');

export const createdRoomSchema = z
  .object({
    session_id: z.uuid(),
    code: z.string(),
    room: roomDetailSchema,
    seat: joinedSchema.nullable(),
  })
  .openapi('CreatedRoom');

export const leftSchema = z
  .object({
    session_id: z.uuid(),
    status: z.enum(['left', 'leaving']).openapi({
      description:
        'left: the stack is back in the wallet. leaving: the table lets you go at the end of the hand and ' +
        'the stack is paid once every earlier hand is persisted',
    }),
    refunded: chips,
    wallet: chips,
  })
  .openapi('Left');

export const closedSchema = z
  .object({
    session_id: z.uuid(),
    status: z.enum(['closed', 'closing']).openapi({
      description: 'closing: the tables are refunding the seats; the room is never listed again',
    }),
    refunds: z.array(z.object({ user_id: z.uuid(), amount: chips })),
  })
  .openapi('Closed');

export const topUpRequestSchema = z
  .strictObject({
    amount: chips.min(1).openapi({
      description: "Chips moved from the wallet to the table; the stack after it stays in the room's buy-in range",
    }),
  })
  .openapi('TopUpRequest');

export const topUpSchema = z
  .object({
    session_id: z.uuid(),
    top_up_id: z.uuid(),
    amount: chips,
    status: z.enum(['pending', 'applied', 'cashed_out']).openapi({
      description: 'pending: the table adds the chips at its next hand boundary',
    }),
    escrow: chips.openapi({ description: 'Your chips at this table: the stack plus top-ups waiting to be added' }),
    wallet: chips,
    replayed: z.boolean(),
  })
  .openapi('TopUp');

const handIdParam = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'letters, digits, _ or -' });

export const handIdParamSchema = z.object({
  id: handIdParam.openapi({ param: { name: 'id', in: 'path' }, description: 'The hand id (a lowercase uuid)' }),
});

export const historyQuerySchema = z.object({
  cursor: z
    .string()
    .max(512)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' }, description: 'The `next` of the previous page' }),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .openapi({ param: { name: 'page_size', in: 'query' } }),
});

const cardOrHidden = z
  .string()
  .nullable()
  .openapi({ description: 'A card such as "As"; null when you did not see it' });

export const handSummarySchema = z
  .object({
    hand_id: z.string(),
    session_id: z.uuid(),
    hand_no: z.number().int().nullable(),
    game: z.string(),
    limit: z.string(),
    blinds: z.unknown(),
    started_at: z.iso.datetime(),
    ended_at: z.iso.datetime(),
    seat: z.number().int(),
    cards: z.array(z.string()).openapi({ description: 'Your hole cards' }),
    board: z.array(z.string()),
    starting_stack: chips,
    final_stack: chips,
    net: z.number().int(),
    won: chips,
    folded: z.boolean(),
    pot_total: chips,
    rake: chips,
    voided_reason: z.string().optional().openapi({
      description:
        'Present when the hand was voided (checkpoint_lost, room_closed or unreadable): no result, every stack back at its start',
    }),
  })
  .openapi('HandSummary');

export const historyPageSchema = z
  .object({ hands: z.array(handSummarySchema), next: z.string().nullable() })
  .openapi('HistoryPage');

export const handDetailSchema = z
  .object({
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
    voided_reason: z.string().optional().openapi({
      description:
        'Present when the hand was voided (checkpoint_lost, room_closed or unreadable): no result, every stack back at its start',
    }),
    players: z.array(
      z.object({
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
      }),
    ),
    actions: z.array(z.record(z.string(), z.unknown())).openapi({
      description: "The operation log in order; other players' unseen cards are null",
    }),
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
    fairness: z.object({
      seed_commit: z.string().nullable(),
      server_seed: z.string().nullable(),
      client_seeds: z.unknown(),
      deck_seed: z.string().nullable(),
      version: z.string().nullable(),
      deck: z.string().nullable(),
    }),
  })
  .openapi('HandDetail');

export const revealResponseSchema = z
  .object({
    reveal: z.record(z.string(), z.unknown()).openapi({
      description:
        'The reveal record (FAIRNESS.md): seeds, and every dealt deck index with its card, or card null where you did not see it',
    }),
    withheld: z.array(z.number().int()).openapi({ description: 'Deck indices whose cards are withheld' }),
  })
  .openapi('Reveal');

export const roomIdParamSchema = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' }, description: 'session_id of the room' }),
});

export const listQuerySchema = z.object({
  game: z
    .enum(GAME_TYPES)
    .optional()
    .openapi({ param: { name: 'game', in: 'query' } }),
  limit: z
    .enum(BETTING_LIMITS)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, description: 'Betting limit' }),
  stakes: stakesFilter.optional().openapi({ param: { name: 'stakes', in: 'query' } }),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .openapi({ param: { name: 'page_size', in: 'query' } }),
});

export const idempotencyHeaderSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\x21-\x7e]+$/, { message: 'printable ASCII without spaces' })
    .optional()
    .openapi({ param: { name: 'idempotency-key', in: 'header' }, description: 'Repeat-safe joins' }),
});
