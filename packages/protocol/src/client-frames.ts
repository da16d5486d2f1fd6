import { z } from 'zod';
import { blindKeySchema, blindSharesSchema, blindShuffleSchema } from './blind-frames.js';
import { chatSchema } from './chat.js';
import {
  lobbySubscribeSchema,
  lobbyUnsubscribeSchema,
  type LobbySubscribeFrame,
  type LobbyUnsubscribeFrame,
} from './lobby-feed.js';
import { ErrorCode, isErrorCode } from './error-codes.js';
import {
  cardSchema,
  chipsSchema,
  commandIdSchema,
  handIdSchema,
  seedHexSchema,
  tableIdSchema,
  tableSeqSchema,
  turnTokenSchema,
} from './wire.js';

// Client -> server. Objects are strict: an unknown field is an invalid frame, not silently dropped,
// so that a client cannot smuggle identity fields such as user_id or seat. The server knows who
// sends a frame from the session; a frame never names its sender.

export const joinTableSchema = z
  .strictObject({
    type: z.literal('join_table'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
    spectate: z
      .boolean()
      .optional()
      .describe('Watch a table you are not a member of (spectator view: no hero, no hole cards). Members ignore it.'),
  })
  .describe(
    'Attach this connection to a table. A member gets their own view; anyone else needs `spectate: true`. ' +
      'Answered with `table_state` (the baseline of this connection’s stream). Marks the member connected.',
  );

export const leaveTableSchema = z
  .strictObject({
    type: z.literal('leave_table'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Detach this connection from the table (stop receiving it). The seat stays the user’s and keeps playing ' +
      'under the disconnect rules; to give the seat up send `leave`.',
  );

export const sitInSchema = z
  .strictObject({
    type: z.literal('sit_in'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
    post: z
      .boolean()
      .optional()
      .describe(
        'Blind games, after missing blinds: true posts them now (a live big blind plus a dead small blind) to ' +
          'play the next hand; false or absent waits for the big blind.',
      ),
  })
  .describe('Come back from sitting out or away: dealt in from the next hand the blinds allow.');

export const sitOutSchema = z
  .strictObject({
    type: z.literal('sit_out'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Sit out from the next hand on (the current hand, if you are in it, is played to its end). The seat and ' +
      'its chips stay; blinds passed while sitting out are owed on return.',
  );

export const leaveSchema = z
  .strictObject({
    type: z.literal('leave'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Give up the seat (docs/protocol.md, "Seats, disconnects and leaving"). Between hands: you are out at ' +
      'once. During a hand you are in: the clock acts for you at your turn without waiting (fold when facing ' +
      'a bet, otherwise check, as the rules forbid folding when checking is free), your committed chips stay ' +
      'in the pot, and you are never dealt another hand. When you are out, the table sends your final stack ' +
      'to be cashed out to your wallet (the same as the lobby’s `POST /api/rooms/{id}/leave`).',
  );

export const startHandSchema = z
  .strictObject({
    type: z.literal('start_hand'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'The host starts the next hand now (room config `startHand.hostMayForceStart`), without waiting for ' +
      'auto-start. Needs at least two players seated, sat in and with chips.',
  );

export const ActionType = {
  FOLD: 'fold',
  CHECK: 'check',
  CALL: 'call',
  BET: 'bet',
  RAISE: 'raise',
  /** The whole stack: the bet, call or raise that puts it in. */
  ALL_IN: 'all_in',
  /** Stud: post the bring-in. */
  BRING_IN: 'bring_in',
  /** Stud: complete instead of bringing in (`amount`: the completion). */
  COMPLETE: 'complete',
  /** Draw games: throw `cards` away for as many new ones; an empty list stands pat. */
  DISCARD: 'discard',
} as const;
export type ActionType = (typeof ActionType)[keyof typeof ActionType];
export const ACTION_TYPES = Object.values(ActionType) as [ActionType, ...ActionType[]];

export const actionSchema = z
  .strictObject({
    type: z.literal('action'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    turn_token: turnTokenSchema,
    command_id: commandIdSchema,
    action: z.enum(ACTION_TYPES),
    amount: chipsSchema
      .optional()
      .describe(
        'bet, raise, complete: your total bet for the round after the action ("to" amount), within ' +
          'hero.valid_actions. Ignored for the other actions.',
      ),
    cards: z.array(cardSchema).max(7).optional().describe('discard: the cards thrown away (none: stand pat).'),
  })
  .describe(
    'One decision, sent with the hand_id and turn_token of the turn it answers (from your_turn or ' +
      'hero.turn_token). Refused without effect when it is not your turn (not_your_turn), the token or hand is ' +
      'not the current one (stale_turn_token, stale_hand), the rules forbid it (illegal_action) or the amount ' +
      'is out of range (invalid_amount). Accepted: answered with `ack`, then the table’s events.',
  );

export const clientSeedSchema = z
  .strictObject({
    type: z.literal('client_seed'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    seed: seedHexSchema.describe('A fresh 32-byte random value generated after seeing this hand’s seed_commit.'),
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Your entropy for the hand announced by seed_commit (docs/fairness.md, derivation step 4). Accepted only ' +
      'from a seat dealt into that hand, once per seat, while the window is open (until ' +
      'seed_commit.window_closes_at, or until every seated human has sent one). Seeds that count are listed in ' +
      'seed_reveal.',
  );

export const showCardsSchema = z
  .strictObject({
    type: z.literal('show_cards'),
    table_id: tableIdSchema,
    hand_id: handIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Show your hole cards of a finished hand to the table (`cards_shown`), in the pause after hand_result and ' +
      'before the next hand starts. Any player dealt into the hand may, once.',
  );

export const resyncRequestSchema = z
  .strictObject({
    type: z.literal('resync_request'),
    table_id: tableIdSchema,
    from_table_seq: tableSeqSchema
      .optional()
      .describe('The last table_seq the client applied; events after it are replayed when still buffered.'),
    command_id: commandIdSchema.optional(),
  })
  .describe(
    'Ask for `resync_response`: the recent events after from_table_seq that you were allowed to see, then a ' +
      'fresh snapshot. Send it after a reconnect, a state_hash mismatch, or a prev_table_seq above your last.',
  );

export const pingSchema = z
  .strictObject({
    type: z.literal('ping'),
    nonce: z.string().max(64).optional(),
  })
  .describe('Heartbeat, answered by the gateway with pong.');

export const clientFrameSchema = z.discriminatedUnion('type', [
  joinTableSchema,
  leaveTableSchema,
  sitInSchema,
  sitOutSchema,
  leaveSchema,
  startHandSchema,
  actionSchema,
  clientSeedSchema,
  showCardsSchema,
  resyncRequestSchema,
  chatSchema,
  blindKeySchema,
  blindShuffleSchema,
  blindSharesSchema,
  pingSchema,
  lobbySubscribeSchema,
  lobbyUnsubscribeSchema,
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type ClientFrameType = ClientFrame['type'];
export type JoinTableFrame = z.infer<typeof joinTableSchema>;
export type LeaveTableFrame = z.infer<typeof leaveTableSchema>;
export type SitInFrame = z.infer<typeof sitInSchema>;
export type SitOutFrame = z.infer<typeof sitOutSchema>;
export type LeaveFrame = z.infer<typeof leaveSchema>;
export type StartHandFrame = z.infer<typeof startHandSchema>;
export type ActionFrame = z.infer<typeof actionSchema>;
export type ClientSeedFrame = z.infer<typeof clientSeedSchema>;
export type ShowCardsFrame = z.infer<typeof showCardsSchema>;
export type ResyncRequestFrame = z.infer<typeof resyncRequestSchema>;
export type PingFrame = z.infer<typeof pingSchema>;

/** Every client frame that names a table (all but ping and the live lobby's). */
export type TableFrame = Exclude<ClientFrame, PingFrame | LobbySubscribeFrame | LobbyUnsubscribeFrame>;

/** Frames the gateway forwards to the table's worker as commands (attach and detach have their own calls). */
export type TableCommandFrame = Exclude<TableFrame, JoinTableFrame | LeaveTableFrame>;

export const CLIENT_FRAME_TYPES = [
  'join_table',
  'leave_table',
  'sit_in',
  'sit_out',
  'leave',
  'start_hand',
  'action',
  'client_seed',
  'show_cards',
  'resync_request',
  'chat',
  'blind_key',
  'blind_shuffle',
  'blind_shares',
  'ping',
  'lobby_subscribe',
  'lobby_unsubscribe',
] as const satisfies readonly ClientFrameType[];

/** The frame types the worker applies as table commands. */
export const TABLE_COMMAND_TYPES = [
  'sit_in',
  'sit_out',
  'leave',
  'start_hand',
  'action',
  'client_seed',
  'show_cards',
  'resync_request',
  'chat',
  'blind_key',
  'blind_shuffle',
  'blind_shares',
] as const satisfies readonly TableCommandFrame['type'][];

export function isTableCommandFrame(frame: ClientFrame): frame is TableCommandFrame {
  return (TABLE_COMMAND_TYPES as readonly string[]).includes(frame.type);
}

// ---------------------------------------------------------------------------------------------

export type ParseClientFrameResult =
  | { readonly ok: true; readonly frame: ClientFrame }
  | {
      readonly ok: false;
      readonly code: ErrorCode;
      readonly message: string;
      readonly command_id?: string;
      readonly table_id?: string;
    };

/**
 * A refinement that stands for a typed refusal (e.g. the chat text's message_too_long) names its code
 * in `params.error_code`; every other schema failure is invalid_frame.
 */
function typedCode(error: z.ZodError): ErrorCode | undefined {
  for (const issue of error.issues) {
    if (issue.code !== 'custom') continue;
    const code = (issue.params as { error_code?: unknown } | undefined)?.error_code;
    if (typeof code === 'string' && isErrorCode(code)) return code;
  }
  return undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Parses one client frame. Every refusal carries a stable code, and command_id/table_id when the
 * frame had readable ones, so the client can match the error to what it sent.
 */
export function parseClientFrame(text: string): ParseClientFrameResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, code: ErrorCode.BAD_JSON, message: 'frame is not valid JSON' };
  }
  return readClientFrame(raw);
}

/** parseClientFrame for a frame already parsed from JSON (the gateway looks at an oversized frame's type first). */
export function readClientFrame(raw: unknown): ParseClientFrameResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, code: ErrorCode.INVALID_FRAME, message: 'frame must be a JSON object' };
  }
  const obj = raw as Record<string, unknown>;
  const echo = {
    ...(typeof obj.command_id === 'string' && commandIdSchema.safeParse(obj.command_id).success
      ? { command_id: obj.command_id }
      : {}),
    ...(typeof obj.table_id === 'string' && tableIdSchema.safeParse(obj.table_id).success
      ? { table_id: obj.table_id }
      : {}),
  };
  if (typeof obj.type !== 'string') {
    return { ok: false, code: ErrorCode.INVALID_FRAME, message: 'frame needs a string "type"', ...echo };
  }
  if (!(CLIENT_FRAME_TYPES as readonly string[]).includes(obj.type)) {
    return {
      ok: false,
      code: ErrorCode.UNKNOWN_TYPE,
      message: `unknown frame type "${obj.type.slice(0, 32)}"`,
      ...echo,
    };
  }
  const parsed = clientFrameSchema.safeParse(raw);
  if (!parsed.success) {
    const code = typedCode(parsed.error) ?? ErrorCode.INVALID_FRAME;
    return { ok: false, code, message: describeIssues(parsed.error), ...echo };
  }
  return { ok: true, frame: parsed.data };
}
