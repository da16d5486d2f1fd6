import { z } from 'zod';
import { ERROR_CODES, ErrorCode } from './error-codes.js';

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
  .describe('Chosen by the client; echoed in the error that refuses this frame.');

const tableSeqSchema = z
  .number()
  .int()
  .nonnegative()
  .describe('Table-wide watermark: grows with every table-scoped message, not contiguous per recipient.');

// ---------------------------------------------------------------------------------------------
// Client -> server. Objects are strict: an unknown field is an invalid frame, not silently dropped,
// so that a client cannot smuggle identity fields such as user_id.

export const joinTableSchema = z
  .strictObject({
    type: z.literal('join_table'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe('Attach this connection to a table the user is a member of. Answered with table_state.');

export const leaveTableSchema = z
  .strictObject({
    type: z.literal('leave_table'),
    table_id: tableIdSchema,
    command_id: commandIdSchema.optional(),
  })
  .describe('Detach this connection from the table. The seat stays the user’s (leaving the room is the lobby’s).');

export const resyncRequestSchema = z
  .strictObject({
    type: z.literal('resync_request'),
    table_id: tableIdSchema,
    from_table_seq: tableSeqSchema.optional(),
    command_id: commandIdSchema.optional(),
  })
  .describe('Ask for a fresh snapshot of a joined table, e.g. after a state_hash mismatch.');

export const pingSchema = z
  .strictObject({
    type: z.literal('ping'),
    nonce: z.string().max(64).optional(),
  })
  .describe('Heartbeat, answered by the gateway with pong.');

export const clientFrameSchema = z.discriminatedUnion('type', [
  joinTableSchema,
  leaveTableSchema,
  resyncRequestSchema,
  pingSchema,
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type ClientFrameType = ClientFrame['type'];

export const CLIENT_FRAME_TYPES = [
  'join_table',
  'leave_table',
  'resync_request',
  'ping',
] as const satisfies readonly ClientFrameType[];

// ---------------------------------------------------------------------------------------------
// Server -> client.

export const SeatStatus = {
  ACTIVE: 'active',
  AWAY: 'away',
  SITTING_OUT: 'sitting_out',
  DISCONNECTED: 'disconnected',
  EMPTY: 'empty',
} as const;
export type SeatStatus = (typeof SeatStatus)[keyof typeof SeatStatus];

export const seatViewSchema = z
  .strictObject({
    seat: z.number().int().nonnegative(),
    user_id: z.string().nullable().describe('null for an empty seat'),
    name: z.string().nullable().describe('null for an empty seat'),
    stack: z.number().int().nonnegative(),
    status: z.enum(Object.values(SeatStatus) as [SeatStatus, ...SeatStatus[]]),
  })
  .describe('One seat. Every seat index of the table is listed; an empty one has status "empty".');
export type SeatView = z.infer<typeof seatViewSchema>;

export const tableStateSchema = z
  .strictObject({
    type: z.literal('table_state'),
    table_id: tableIdSchema,
    table_seq: tableSeqSchema,
    ts: z.number().int().describe('Server time, ms since the epoch. Not covered by state_hash.'),
    seats: z.array(seatViewSchema),
    state_hash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .describe('Hash of this snapshot as sent to this recipient; see "State hash".'),
  })
  .describe('The authoritative snapshot of a table for one recipient. Replaces whatever the client held.');
export type TableState = z.infer<typeof tableStateSchema>;

export const tableClosedSchema = z
  .strictObject({
    type: z.literal('table_closed'),
    table_id: tableIdSchema,
    table_seq: tableSeqSchema,
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

export const serverMessageSchema = z.discriminatedUnion('type', [
  tableStateSchema,
  tableClosedSchema,
  errorMessageSchema,
  pongSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** A server message that belongs to one table and so carries its watermark. */
export type TableMessage = TableState | TableClosed;

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
    return { ok: false, code: ErrorCode.INVALID_FRAME, message: describeIssues(parsed.error), ...echo };
  }
  return { ok: true, frame: parsed.data };
}
