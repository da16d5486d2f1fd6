import { z } from 'zod';
import { ERROR_CODES } from './error-codes.js';
import { chipsSchema, commandIdSchema, tableIdSchema, tableSeqSchema } from './wire.js';
import { Role, tableScoped, tableStateSchema, tournamentViewSchema, type TableState } from './table-views.js';
import { chatMessageSchema } from './chat.js';
import { lobbyDeltaSchema, lobbyRoomsSchema, waitlistMessageSchema, walletMessageSchema } from './lobby-feed.js';
import {
  blindStepSchema,
  cardsShownSchema,
  handResultSchema,
  handStartedSchema,
  handVoidedSchema,
  holeCardsDealtSchema,
  playerActionSchema,
  seedCommitMessageSchema,
  seedRevealSchema,
  showdownSchema,
  streetRevealedSchema,
  turnWarningSchema,
  yourTurnSchema,
} from './hand-events.js';

export * from './table-views.js';
export * from './hand-events.js';
export * from './chat.js';

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
        'illegal_action: the rule, e.g. cannot_check, raise_not_reopened, no_opponent_can_answer, bring_in_due. ' +
          'chat_disabled: chat_off (the room has chat off) or spectators_muted (only players may chat). ' +
          'not_allowed: host_only (only the host may start a hand) or tournament (the director seats and deals). ' +
          'live_lobby: the refusal of a lobby_subscribe (unavailable, rate_limited).',
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

export const tournamentStateSchema = z
  .strictObject({
    type: z.literal('tournament_state'),
    ...tableScoped,
    tournament: tournamentViewSchema,
  })
  .describe(
    'The tournament changed (a new level, a break, players out, the bubble): the same view as ' +
      'table_state.tournament, sent to everyone at the table.',
  );
export type TournamentState = z.infer<typeof tournamentStateSchema>;

export const tableMovedSchema = z
  .strictObject({
    type: z.literal('table_moved'),
    ...tableScoped,
    tournament_id: tableIdSchema,
    to_table_id: tableIdSchema.describe('Join this table (join_table): you are seated there with your chips.'),
  })
  .describe(
    'The tournament director moved you to another table (balancing, or this table was broken). Sent to ' +
      'the moved player only; you are no longer a member here. The SDK follows it.',
  );
export type TableMoved = z.infer<typeof tableMovedSchema>;

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
  blindStepSchema,
  tableClosedSchema,
  chatMessageSchema,
  tournamentStateSchema,
  tableMovedSchema,
]);
export type TableEvent = z.infer<typeof tableEventSchema>;
export type TableEventType = TableEvent['type'];

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
    'Answer to resync_request (docs/protocol.md, "Resync", says how to apply it). The table keeps the last ' +
      '512 events in a bounded buffer; older ones are not replayed (complete: false) but the snapshot is ' +
      'always current.',
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
  blindStepSchema,
  resyncResponseSchema,
  ackSchema,
  tableClosedSchema,
  chatMessageSchema,
  tournamentStateSchema,
  tableMovedSchema,
  tableHeartbeatSchema,
  errorMessageSchema,
  pongSchema,
  lobbyRoomsSchema,
  lobbyDeltaSchema,
  walletMessageSchema,
  waitlistMessageSchema,
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
export type BlindStepMessage = z.infer<typeof blindStepSchema>;
export type Ack = z.infer<typeof ackSchema>;

/** A server message that belongs to one table's stream and so carries its watermark. */
export type TableMessage = TableState | TableEvent;

/** Messages that carry hand_id and hand_seq. */
export type HandMessage = Extract<TableEvent, { hand_id: string }>;
