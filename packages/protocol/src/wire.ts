import { z } from 'zod';

/** The protocol generation these schemas describe: WebSocket V2 (docs/protocol.md). */
export const PROTOCOL_VERSION = 2;

/** Room ids are UUIDs; the lobby hands them out as session_id and they double as table ids. */
export const tableIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'expected letters, digits, - or _' })
  .describe('The table (room) id, which the lobby returns as session_id.');

export const commandIdSchema = z
  .string()
  .min(1)
  .max(64)
  .describe(
    'Chosen by the client, unique per command. A command sent again with the same id is answered with the ' +
      'original result (the same ack or error) and never applied twice. The table remembers the ids of a command ' +
      'about a hand (one with a hand_id) while that hand or the next is on, and after that refuses the same command ' +
      'as stale (stale_hand, stale_turn_token, seed_refused or cannot_show); of the other commands it remembers the ' +
      'last 128 of each player. The error refusing a frame echoes it.',
  );

export const tableSeqSchema = z
  .number()
  .int()
  .nonnegative()
  .describe('Table-wide watermark: grows with every table-scoped message, not contiguous per recipient.');

export const prevTableSeqSchema = z
  .number()
  .int()
  .nonnegative()
  .describe(
    'The table_seq of the previous message this recipient’s live stream carried (0: none). When it is above the ' +
      'last table_seq the client applied, a message was lost on the way: send resync_request. Present only on ' +
      'messages of the live stream, not in replies (the join snapshot, ack, resync_response) or replayed events.',
  );

export const handIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    message: 'expected a lowercase UUID',
  })
  .describe(
    'The hand: a fresh lowercase UUID, fixed before its seed is committed (docs/fairness.md, derivation step 1).',
  );

export const handSeqSchema = z
  .number()
  .int()
  .nonnegative()
  .describe(
    'Position in the hand: the number of engine operations (posts, deals, decisions, reveals, awards) recorded ' +
      'so far; 0 before the deal. Monotonic metadata, not contiguous per recipient. Not covered by state_hash.',
  );

export const seatNumberSchema = z.number().int().min(1).max(10).describe('Seat number, 1-based.');

export const chipsSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).describe('Whole chips.');

/** Epoch milliseconds (server clock). */
export const epochMsSchema = z.number().int().nonnegative();

export const cardSchema = z
  .string()
  .regex(/^[2-9TJQKA][cdhs]$/, { message: 'expected a card such as "As" or "Td"' })
  .describe('A card: rank 2-9 T J Q K A, then suit c d h s.');

export const turnTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, { message: 'expected a turn token' })
  .describe(
    'Opaque token of one turn, given only to the player whose turn it is (your_turn, hero.turn_token). A ' +
      'reconnect or resync during the turn returns the same token; it expires when the turn ends.',
  );

export const seedHexSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: 'expected 32 bytes as 64 lowercase hex digits' })
  .describe('32 bytes as 64 lowercase hex digits.');

export const seedCommitSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .describe('"sha256:" + lowercase hex SHA-256 of the server seed (docs/fairness.md, derivation step 3).');

export const stateHashSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/)
  .describe('Hash of this snapshot as sent to this recipient; see "State hash".');
