import { z } from 'zod';
import { ErrorCode } from './error-codes.js';
import { Role, tableScoped } from './table-views.js';
import { commandIdSchema, epochMsSchema, seatNumberSchema, tableIdSchema } from './wire.js';

// Table chat: a `chat` frame from a player (or, where the room allows it, a spectator), and the
// `chat_message` every recipient of the table's stream gets. Chat rides the table's stream like any
// event (its own table_seq, replayed by resync while the event buffer holds it) and never changes
// the game: it carries text only, never cards or actions.

/** The most characters (Unicode code points, after trimming) one chat message may have. */
export const CHAT_TEXT_MAX = 200;

/**
 * The most UTF-16 units a chat frame's `text` may have before trimming: a bound on the work one
 * frame can ask for, well above anything CHAT_TEXT_MAX lets through.
 */
export const CHAT_FRAME_TEXT_MAX = 1_000;

/** Per user and table: a burst of this many messages, then one more every CHAT_RATE.refillMs. */
export const CHAT_RATE = { burst: 5, refillMs: 2_000 } as const;

/** Why a chat was refused with `chat_disabled` (the error's `reason`). */
export const ChatDisabledReason = {
  /** The host turned chat off for the room (`chat.enabled: false`). */
  ROOM: 'chat_off',
  /** A spectator, and the room lets only players chat (`chat.spectators: false`). */
  SPECTATORS: 'spectators_muted',
} as const;
export type ChatDisabledReason = (typeof ChatDisabledReason)[keyof typeof ChatDisabledReason];

// C0 and C1 controls and DEL (newlines and tabs included: a message is one line), and the line and
// paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export type ChatTextCheck =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      readonly code: typeof ErrorCode.MESSAGE_TOO_LONG | typeof ErrorCode.MESSAGE_INVALID;
      readonly message: string;
    };

/**
 * The text a chat message carries: trimmed, not empty, at most CHAT_TEXT_MAX code points, no control
 * characters. The gateway checks it on the frame, the table again before it sends anything, and the
 * SDK before it sends, so all three refuse the same texts with the same codes.
 */
export function checkChatText(raw: string): ChatTextCheck {
  const text = raw.trim();
  if (text.length === 0) return { ok: false, code: ErrorCode.MESSAGE_INVALID, message: 'the message is empty' };
  // Code points, so that an emoji counts as one character (two UTF-16 units make at most two).
  if (text.length > CHAT_TEXT_MAX && [...text].length > CHAT_TEXT_MAX) {
    return {
      ok: false,
      code: ErrorCode.MESSAGE_TOO_LONG,
      message: `a message has at most ${CHAT_TEXT_MAX} characters`,
    };
  }
  if (CONTROL.test(text)) {
    return { ok: false, code: ErrorCode.MESSAGE_INVALID, message: 'a message cannot contain control characters' };
  }
  return { ok: true, text };
}

export const chatSchema = z
  .strictObject({
    type: z.literal('chat'),
    table_id: tableIdSchema,
    text: z
      .string()
      .max(CHAT_FRAME_TEXT_MAX)
      .superRefine((text, ctx) => {
        const check = checkChatText(text);
        if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message, params: { error_code: check.code } });
      })
      .describe(
        `The message: trimmed by the server, then 1 to ${CHAT_TEXT_MAX} characters (code points) with no control ` +
          'characters (one line). Refused with message_too_long or message_invalid otherwise.',
      ),
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Say something at a table you are attached to. Players (members of the room) may chat while the room’s ' +
      '`chat.enabled` is on; spectators only when `chat.spectators` is on too (chat_disabled otherwise, with ' +
      `\`reason\` ${ChatDisabledReason.ROOM} or ${ChatDisabledReason.SPECTATORS}). Each user may send a burst of ` +
      `${CHAT_RATE.burst} messages per table, then one every ${CHAT_RATE.refillMs / 1000} s (chat_rate_limited). ` +
      'Accepted: `ack` (with a command_id), and `chat_message` to everyone at the table, sender included.',
  );
export type ChatFrame = z.infer<typeof chatSchema>;

export const chatMessageSchema = z
  .strictObject({
    type: z.literal('chat_message'),
    ...tableScoped,
    chat_id: z.string().min(1).max(64).describe('Unique per table: ignore a chat_id you already showed.'),
    user_id: z.string().describe('The sender (mute on the client by this id).'),
    name: z.string().describe('The sender’s display name.'),
    role: z.enum([Role.PLAYER, Role.SPECTATOR]).describe('player: a member of the room; spectator: watching.'),
    seat: seatNumberSchema.nullable().describe('The sender’s seat, or null (a spectator, or a member not seated).'),
    text: z
      .string()
      .min(1)
      .max(CHAT_TEXT_MAX * 2),
    ts: epochMsSchema.describe('Server time the table accepted it.'),
  })
  .describe(
    'A chat message, to everyone at the table (players and spectators). Part of the table’s stream: it takes a ' +
      'table_seq and is replayed by resync while the table’s event buffer holds it (the last 512 events); it is ' +
      'not kept in hand histories. It changes nothing else, so no `table_state` follows it.',
  );
export type ChatMessage = z.infer<typeof chatMessageSchema>;
